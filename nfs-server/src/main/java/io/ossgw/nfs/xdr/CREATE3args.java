package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.8 CREATE3args. */
public record CREATE3args(diropargs3 where, createhow3 how) implements XdrType {
  public static CREATE3args decode(XdrReader r) {
    return new CREATE3args(diropargs3.decode(r), createhow3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    where.encode(w);
    how.encode(w);
  }
}
