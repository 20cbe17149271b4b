package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 post_op_attr: {@code union switch (bool attributes_follow) { case TRUE: fattr3; case FALSE: void }}.
 * Held as a nullable {@link fattr3} in the types that carry it.
 */
public final class post_op_attr {
  private post_op_attr() {}

  /** Encoded size of present attributes. */
  public static final int SIZE = 4 + fattr3.SIZE;

  public static fattr3 decode(XdrReader r) {
    return r.optional(fattr3::decode);
  }

  public static void encode(XdrWriter w, fattr3 attributes) {
    w.optional(attributes);
  }
}
