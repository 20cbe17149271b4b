package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §3.3.15 LINK3res: both arms carry file_attributes (post_op_attr, nullable) and linkdir_wcc.
 */
public record LINK3res(int status, fattr3 fileAttributes, wcc_data linkdirWcc) implements XdrType {
  public static LINK3res decode(XdrReader r) {
    return new LINK3res(r.int32(), post_op_attr.decode(r), wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    post_op_attr.encode(w, fileAttributes);
    linkdirWcc.encode(w);
  }
}
