package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.12 REMOVE3args. */
public record REMOVE3args(diropargs3 object) implements XdrType {
  public static REMOVE3args decode(XdrReader r) {
    return new REMOVE3args(diropargs3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
