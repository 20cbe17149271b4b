package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.13 RMDIR3res: both arms (RMDIR3resok, RMDIR3resfail) carry dir_wcc. */
public record RMDIR3res(int status, wcc_data dirWcc) implements XdrType {
  public static RMDIR3res decode(XdrReader r) {
    return new RMDIR3res(r.int32(), wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    dirWcc.encode(w);
  }
}
