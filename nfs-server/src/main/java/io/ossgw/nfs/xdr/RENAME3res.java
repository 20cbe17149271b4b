package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.14 RENAME3res: both arms carry fromdir_wcc and todir_wcc. */
public record RENAME3res(int status, wcc_data fromdirWcc, wcc_data todirWcc) implements XdrType {
  public static RENAME3res decode(XdrReader r) {
    return new RENAME3res(r.int32(), wcc_data.decode(r), wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    fromdirWcc.encode(w);
    todirWcc.encode(w);
  }
}
