package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.14 RENAME3args. */
public record RENAME3args(diropargs3 from, diropargs3 to) implements XdrType {
  public static RENAME3args decode(XdrReader r) {
    return new RENAME3args(diropargs3.decode(r), diropargs3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    from.encode(w);
    to.encode(w);
  }
}
