package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 pre_op_attr: {@code union switch (bool attributes_follow) { case TRUE: wcc_attr; case FALSE: void }}.
 * Held as a nullable {@link wcc_attr}.
 */
public final class pre_op_attr {
  private pre_op_attr() {}

  public static wcc_attr decode(XdrReader r) {
    return r.optional(wcc_attr::decode);
  }

  public static void encode(XdrWriter w, wcc_attr attributes) {
    w.optional(attributes);
  }
}
