package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.20 PATHCONF3args. */
public record PATHCONF3args(nfs_fh3 object) implements XdrType {
  public static PATHCONF3args decode(XdrReader r) {
    return new PATHCONF3args(nfs_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
