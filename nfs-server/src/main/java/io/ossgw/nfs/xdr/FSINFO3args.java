package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.19 FSINFO3args. */
public record FSINFO3args(nfs_fh3 fsroot) implements XdrType {
  public static FSINFO3args decode(XdrReader r) {
    return new FSINFO3args(nfs_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    fsroot.encode(w);
  }
}
