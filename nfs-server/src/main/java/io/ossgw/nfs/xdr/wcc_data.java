package io.ossgw.nfs.xdr;

/**
 * RFC 1813 §2.6 wcc_data: attributes before and after an operation that changed an object.
 *
 * @param before pre_op_attr, or null
 * @param after post_op_attr, or null
 */
public record wcc_data(wcc_attr before, fattr3 after) implements XdrType {
  /** Neither before nor after attributes. */
  public static final wcc_data EMPTY = new wcc_data(null, null);

  public static wcc_data decode(XdrReader r) {
    return new wcc_data(pre_op_attr.decode(r), post_op_attr.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    pre_op_attr.encode(w, before);
    post_op_attr.encode(w, after);
  }
}
