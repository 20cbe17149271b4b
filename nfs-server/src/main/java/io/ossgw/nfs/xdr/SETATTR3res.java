package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.2 SETATTR3res: both arms (SETATTR3resok, SETATTR3resfail) carry obj_wcc. */
public record SETATTR3res(int status, wcc_data objWcc) implements XdrType {
  public static SETATTR3res decode(XdrReader r) {
    return new SETATTR3res(r.int32(), wcc_data.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(status);
    objWcc.encode(w);
  }
}
