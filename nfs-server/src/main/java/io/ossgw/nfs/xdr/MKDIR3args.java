package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.9 MKDIR3args. */
public record MKDIR3args(diropargs3 where, sattr3 attributes) implements XdrType {
  public static MKDIR3args decode(XdrReader r) {
    return new MKDIR3args(diropargs3.decode(r), sattr3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    where.encode(w);
    attributes.encode(w);
  }
}
