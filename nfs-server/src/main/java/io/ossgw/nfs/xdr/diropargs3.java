package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 diropargs3: a directory and a name in it.
 *
 * @param dir the directory's handle
 * @param name filename3, UTF-8
 */
public record diropargs3(nfs_fh3 dir, String name) implements XdrType {
  public static diropargs3 decode(XdrReader r) {
    return new diropargs3(nfs_fh3.decode(r), r.string(Nfs3.MAX_NAME_DECODE));
  }

  @Override
  public void encode(XdrWriter w) {
    dir.encode(w);
    w.string(name);
  }
}
