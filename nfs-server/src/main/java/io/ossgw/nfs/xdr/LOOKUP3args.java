package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.3 LOOKUP3args. */
public record LOOKUP3args(diropargs3 what) implements XdrType {
  public static LOOKUP3args decode(XdrReader r) {
    return new LOOKUP3args(diropargs3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    what.encode(w);
  }
}
