package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.1 GETATTR3args. */
public record GETATTR3args(nfs_fh3 object) implements XdrType {
  public static GETATTR3args decode(XdrReader r) {
    return new GETATTR3args(nfs_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
