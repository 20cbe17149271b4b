package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.5 READLINK3args. */
public record READLINK3args(nfs_fh3 symlink) implements XdrType {
  public static READLINK3args decode(XdrReader r) {
    return new READLINK3args(nfs_fh3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    symlink.encode(w);
  }
}
