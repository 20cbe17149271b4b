package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.8 CREATE3res. CREATE3resok: obj, obj_attributes, dir_wcc; CREATE3resfail: dir_wcc.
 *
 * @param obj post_op_fh3: the new object's handle, nullable (NFS3_OK only)
 * @param objAttributes post_op_attr of the new object, nullable (NFS3_OK only)
 * @param dirWcc the directory's attributes before and after
 */
public record CREATE3res(int status, nfs_fh3 obj, fattr3 objAttributes, wcc_data dirWcc) implements XdrType {
  public static CREATE3res fail(int status, wcc_data dirWcc) {
    return new CREATE3res(status, null, null, dirWcc);
  }

  public static CREATE3res decode(XdrReader r) {
    int status = r.int32();
    if (status == nfsstat3.NFS3_OK) {
      return new CREATE3res(status, post_op_fh3.decode(r), post_op_attr.decode(r), wcc_data.decode(r));
    }
    return fail(status, wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    if (status == nfsstat3.NFS3_OK) {
      post_op_fh3.encode(w, obj);
      post_op_attr.encode(w, objAttributes);
    }
    dirWcc.encode(w);
  }
}
