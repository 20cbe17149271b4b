package io.ossgw.nfs.xdr;

/** RFC 1813 §5.1.1 dirpath: {@code string<MNTPATHLEN>}, the argument of MNT and UMNT. */
public final class dirpath {
  private dirpath() {}

  public static String decode(XdrReader r) {
    return r.string(Nfs3.MNTPATHLEN);
  }

  public static void encode(XdrWriter w, String path) {
    w.string(path);
  }
}
