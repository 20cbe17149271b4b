package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;

/** Bounded decoding helpers the NFSv4 types share beyond {@link XdrReader}. */
public final class Xdr4 {
  private Xdr4() {}

  /**
   * The element count of a variable-length array, checked against {@code max} before anything is allocated.
   *
   * @throws XdrException if the count is negative (over 2^31 unsigned) or over {@code max}
   */
  public static int count(XdrReader r, int max) {
    int n = r.int32();
    if (n < 0 || n > max) {
      throw new XdrException("array of " + (n & 0xffffffffL) + " elements over the limit " + max);
    }
    return n;
  }

  /** Skips a bitmap4 (uint32_t&lt;&gt;) of at most {@link Nfs4#ARRAY_LIMIT} words. */
  public static void skipBitmap(XdrReader r) {
    int n = count(r, Nfs4.ARRAY_LIMIT);
    for (int i = 0; i < n; i++) {
      r.int32();
    }
  }
}
