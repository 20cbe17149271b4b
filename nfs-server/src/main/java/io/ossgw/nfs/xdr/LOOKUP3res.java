package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.3 LOOKUP3res. LOOKUP3resok: object, obj_attributes, dir_attributes; LOOKUP3resfail: dir_attributes.
 *
 * @param object the handle found (NFS3_OK only)
 * @param objAttributes post_op_attr of the object, nullable (NFS3_OK only)
 * @param dirAttributes post_op_attr of the directory, nullable
 */
public record LOOKUP3res(int status, nfs_fh3 object, fattr3 objAttributes, fattr3 dirAttributes) implements XdrType {
  public static LOOKUP3res fail(int status, fattr3 dirAttributes) {
    return new LOOKUP3res(status, null, null, dirAttributes);
  }

  public static LOOKUP3res decode(XdrReader r) {
    int status = r.int32();
    if (status == nfsstat3.NFS3_OK) {
      return new LOOKUP3res(status, nfs_fh3.decode(r), post_op_attr.decode(r), post_op_attr.decode(r));
    }
    return fail(status, post_op_attr.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    if (status == nfsstat3.NFS3_OK) {
      object.encode(w);
      post_op_attr.encode(w, objAttributes);
    }
    post_op_attr.encode(w, dirAttributes);
  }
}
