package io.ossgw.nfs.xdr;

/** RFC 1813 §3.3.15 LINK3args. */
public record LINK3args(nfs_fh3 file, diropargs3 link) implements XdrType {
  public static LINK3args decode(XdrReader r) {
    return new LINK3args(nfs_fh3.decode(r), diropargs3.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    file.encode(w);
    link.encode(w);
  }
}
