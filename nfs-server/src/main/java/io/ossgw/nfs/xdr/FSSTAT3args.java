package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.18 FSSTAT3args. */
public record FSSTAT3args(nfs_fh3 fsroot) implements XdrType {
  public static FSSTAT3args decode(XdrReader r) {
    return new FSSTAT3args(nfs_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    fsroot.encode(w);
  }
}
