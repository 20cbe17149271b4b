package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.13 RMDIR3args. */
public record RMDIR3args(diropargs3 object) implements XdrType {
  public static RMDIR3args decode(XdrReader r) {
    return new RMDIR3args(diropargs3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
