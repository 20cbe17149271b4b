package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 post_op_fh3: {@code union switch (bool handle_follows) { case TRUE: nfs_fh3; case FALSE: void }}.
 * Held as a nullable {@link nfs_fh3}.
 */
public final class post_op_fh3 {
  private post_op_fh3() {}

  public static nfs_fh3 decode(XdrReader r) {
    return r.optional(nfs_fh3::decode);
  }

  public static void encode(XdrWriter w, nfs_fh3 handle) {
    w.optional(handle);
  }
}
