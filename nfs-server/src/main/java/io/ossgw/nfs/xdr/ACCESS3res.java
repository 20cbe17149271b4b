package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.4 ACCESS3res. ACCESS3resok: obj_attributes, access; ACCESS3resfail: obj_attributes.
 *
 * @param objAttributes post_op_attr, nullable
 * @param access the ACCESS3_* bits granted (NFS3_OK only)
 */
public record ACCESS3res(int status, fattr3 objAttributes, int access) implements XdrType {
  public static ACCESS3res fail(int status, fattr3 objAttributes) {
    return new ACCESS3res(status, objAttributes, 0);
  }

  public static ACCESS3res decode(XdrReader r) {
    int status = r.int32();
    fattr3 a = post_op_attr.decode(r);
    return new ACCESS3res(status, a, status == nfsstat3.NFS3_OK ? r.int32() : 0);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, objAttributes);
    if (status == nfsstat3.NFS3_OK) {
      w.int32(access);
    }
  }
}
