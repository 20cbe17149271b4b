package io.ossgw.nfs.xdr;

/**
 * A value with an XDR encoding (RFC 4506). Every type of this package also has a static {@code decode(XdrReader)}
 * that reads what {@link #encode} writes.
 */
public interface XdrType {
  /** Writes this value. */
  void encode(XdrWriter w);
}
