package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.12 REMOVE3res: both arms (REMOVE3resok, REMOVE3resfail) carry dir_wcc. */
public record REMOVE3res(int status, wcc_data dirWcc) implements XdrType {
  public static REMOVE3res decode(XdrReader r) {
    return new REMOVE3res(r.int32(), wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    dirWcc.encode(w);
  }
}
