package io.ossgw.core.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * CRC-64/XZ, the checksum OSS returns in {@code x-oss-hash-crc64ecma} (ECMA-182 polynomial 0x42F0E1EBA9EA3693,
 * reflected, initial value and final xor all ones; check value {@code 0x995DC9BBDF1939FA} for "123456789").
 *
 * <p>Slicing-by-16: each step folds 16 bytes with 16 table lookups in one 32 KiB table, reading the input 8 bytes at a
 * time. aliyun-sdk-oss 3.18.5's {@code com.aliyun.oss.common.utils.CRC64} goes a byte at a time and was 25-38 % of the
 * gateway's Java samples on uploads (docs/benchmarks.md, "CPU per byte"); this is 5-8x faster (jmh {@code
 * Crc64Benchmark}).
 *
 * <p>With Intel ISA-L installed (Debian {@code libisal2}) runs of {@value #NATIVE_MIN} bytes or more go to its
 * carry-less-multiply code instead ({@link IsalCrc64}: 0.11 CPU-s per GiB against this class's 1.35 under the
 * launcher's C1-only JIT); the table method stays for short runs and machines without the library.
 *
 * <p>Values are finished CRCs (0 for no data), so {@link #update} continues the CRC of a prefix and {@link #combine}
 * joins the CRCs of two adjacent pieces (the parts of a multipart upload) without reading their bytes again.
 */
public final class Crc64 {
  /** The reflected ECMA-182 polynomial. */
  private static final long POLY = 0xC96C5795D7870F42L;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  /** {@code T[k * 256 + b]}: the CRC register after byte {@code b} followed by {@code k} zero bytes. */
  private static final long[] T = new long[16 * 256];
  /** {@code X2N[k]} = x^(2^k) mod P, for {@link #combine}. */
  private static final long[] X2N = new long[64];
  /** Bytes per lane of {@link #lanes}: four lanes make one 64 KiB block. */
  private static final int LANE = 16 * 1024;
  /** x^(8 LANE) mod P: shifts a lane's CRC over the next lane. */
  private static final long LANE_SHIFT;
  /** Fewest bytes worth a native call ({@link IsalCrc64}); shorter runs stay in Java. */
  private static final int NATIVE_MIN = 256;

  static {
    for (int n = 0; n < 256; n++) {
      long c = n;
      for (int k = 0; k < 8; k++) {
        c = (c & 1) != 0 ? (c >>> 1) ^ POLY : c >>> 1;
      }
      T[n] = c;
    }
    for (int k = 1; k < 16; k++) {
      for (int n = 0; n < 256; n++) {
        long c = T[(k - 1) * 256 + n];
        T[k * 256 + n] = (c >>> 8) ^ T[(int) (c & 0xff)];
      }
    }
    long p = 1L << 62; // x^1 (bit 63 is x^0 in the reflected order)
    X2N[0] = p;
    for (int k = 1; k < 64; k++) {
      p = multModP(p, p);
      X2N[k] = p;
    }
    LANE_SHIFT = x2nModP(LANE, 3);
  }

  private Crc64() {}

  /** The CRC of {@code buf[off, off+len)}. */
  public static long of(byte[] buf, int off, int len) {
    return update(0, buf, off, len);
  }

  /**
   * Continues a finished CRC over {@code len} more bytes.
   *
   * @param crc the CRC of the data so far (0 for none)
   * @return the CRC of that data followed by {@code buf[off, off+len)}
   * @throws IndexOutOfBoundsException when the range is not inside {@code buf}
   */
  public static long update(long crc, byte[] buf, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    if (len >= NATIVE_MIN && IsalCrc64.available()) {
      return IsalCrc64.update(crc, buf, off, len);
    }
    return tableUpdate(crc, buf, off, len);
  }

  /**
   * Where the CRCs of more than a few bytes are computed: {@code "isal"} (Intel ISA-L's carry-less multiply, {@link
   * IsalCrc64}) or {@code "table"} (this class's slicing-by-8 lanes).
   */
  public static String implementation() {
    return IsalCrc64.available() ? "isal" : "table";
  }

  /** {@link #update(long, byte[], int, int)} by the table method alone (the bounds are checked). */
  static long tableUpdate(long crc, byte[] buf, int off, int len) {
    java.util.Objects.checkFromIndexSize(off, len, buf.length);
    long[] scratch = len >= 4 * LANE ? new long[4 * STEP] : null;
    while (len >= 4 * LANE) {
      crc = lanes(crc, buf, off, scratch);
      off += 4 * LANE;
      len -= 4 * LANE;
    }
    long c = ~crc;
    int i = off;
    int end = off + len;
    long[] t = T;
    while (end - i >= 16) {
      long a = (long) LONG_LE.get(buf, i) ^ c;
      long b = (long) LONG_LE.get(buf, i + 8);
      c = fold16(t, a, b);
      i += 16;
    }
    while (i < end) {
      c = t[(int) ((c ^ buf[i++]) & 0xff)] ^ (c >>> 8);
    }
    return ~c;
  }

  /**
   * One 64 KiB block as four 16 KiB lanes in one loop, slicing-by-8 each: the lanes' CRCs do not depend on each other,
   * so the CPU overlaps their table lookups instead of waiting on one chain of them (about twice slicing-by-16's
   * speed). The lanes' CRCs are then joined with the fixed shift over one lane.
   */
  private static long lanes(long crc, byte[] buf, int off, long[] scratch) {
    return lanes(crc, ByteBuffer.wrap(buf), off, scratch);
  }

  /** Longs per lane copied at a time by {@link #lanes(long, ByteBuffer, int, long[])}. */
  private static final int STEP = 128;

  /**
   * {@link #lanes(long, byte[], int, long[])} over a view of a (heap or direct) buffer at absolute index
   * {@code off}. The lanes are copied {@link #STEP} longs at a time into a small array (a bulk copy, memcpy) and folded
   * from there with the tables inlined: with the C1-only JIT the gateway runs by default, a {@code getLong} per 8 bytes
   * and a call per fold cost 2.6-2.9 CPU-s per GiB, this 1.3 (C2: 0.56 and 0.7; issue 22, docs/benchmarks.md "NFS
   * beside nfs-ganesha").
   */
  private static long lanes(long crc, ByteBuffer le, int off, long[] s) {
    long c0 = ~crc;
    long c1 = -1;
    long c2 = -1;
    long c3 = -1;
    long[] t = T;
    java.nio.LongBuffer longs = le.slice(off, 4 * LANE).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer();
    int laneLongs = LANE / 8;
    for (int base = 0; base < laneLongs; base += STEP) {
      longs.get(base, s, 0, STEP);
      longs.get(base + laneLongs, s, STEP, STEP);
      longs.get(base + 2 * laneLongs, s, 2 * STEP, STEP);
      longs.get(base + 3 * laneLongs, s, 3 * STEP, STEP);
      for (int i = 0; i < STEP; i++) {
        long a = s[i] ^ c0;
        long b = s[STEP + i] ^ c1;
        long d = s[2 * STEP + i] ^ c2;
        long e = s[3 * STEP + i] ^ c3;
        c0 = t[7 * 256 + (int) (a & 0xff)] ^ t[6 * 256 + (int) ((a >>> 8) & 0xff)]
            ^ t[5 * 256 + (int) ((a >>> 16) & 0xff)] ^ t[4 * 256 + (int) ((a >>> 24) & 0xff)]
            ^ t[3 * 256 + (int) ((a >>> 32) & 0xff)] ^ t[2 * 256 + (int) ((a >>> 40) & 0xff)]
            ^ t[256 + (int) ((a >>> 48) & 0xff)] ^ t[(int) (a >>> 56)];
        c1 = t[7 * 256 + (int) (b & 0xff)] ^ t[6 * 256 + (int) ((b >>> 8) & 0xff)]
            ^ t[5 * 256 + (int) ((b >>> 16) & 0xff)] ^ t[4 * 256 + (int) ((b >>> 24) & 0xff)]
            ^ t[3 * 256 + (int) ((b >>> 32) & 0xff)] ^ t[2 * 256 + (int) ((b >>> 40) & 0xff)]
            ^ t[256 + (int) ((b >>> 48) & 0xff)] ^ t[(int) (b >>> 56)];
        c2 = t[7 * 256 + (int) (d & 0xff)] ^ t[6 * 256 + (int) ((d >>> 8) & 0xff)]
            ^ t[5 * 256 + (int) ((d >>> 16) & 0xff)] ^ t[4 * 256 + (int) ((d >>> 24) & 0xff)]
            ^ t[3 * 256 + (int) ((d >>> 32) & 0xff)] ^ t[2 * 256 + (int) ((d >>> 40) & 0xff)]
            ^ t[256 + (int) ((d >>> 48) & 0xff)] ^ t[(int) (d >>> 56)];
        c3 = t[7 * 256 + (int) (e & 0xff)] ^ t[6 * 256 + (int) ((e >>> 8) & 0xff)]
            ^ t[5 * 256 + (int) ((e >>> 16) & 0xff)] ^ t[4 * 256 + (int) ((e >>> 24) & 0xff)]
            ^ t[3 * 256 + (int) ((e >>> 32) & 0xff)] ^ t[2 * 256 + (int) ((e >>> 40) & 0xff)]
            ^ t[256 + (int) ((e >>> 48) & 0xff)] ^ t[(int) (e >>> 56)];
      }
    }
    return join(c0, c1, c2, c3);
  }

  /**
   * The CRC of the four lanes' data in order from the lanes' registers {@code c0..c3} (the first lane started from
   * the CRC so far, the others from zero): each CRC so far shifted over one more lane, xor-ed with the next lane's.
   */
  private static long join(long c0, long c1, long c2, long c3) {
    long r = multModP(LANE_SHIFT, ~c0) ^ ~c1;
    r = multModP(LANE_SHIFT, r) ^ ~c2;
    return multModP(LANE_SHIFT, r) ^ ~c3;
  }

  /**
   * The register after 16 bytes (slicing-by-16): {@code a} is the first 8 bytes xor-ed with the register, {@code b}
   * the next 8; the first 8 bytes go through tables 15..8, the next through 7..0 ({@link #fold8}).
   */
  private static long fold16(long[] t, long a, long b) {
    return t[15 * 256 + (int) (a & 0xff)] ^ t[14 * 256 + (int) ((a >>> 8) & 0xff)]
        ^ t[13 * 256 + (int) ((a >>> 16) & 0xff)] ^ t[12 * 256 + (int) ((a >>> 24) & 0xff)]
        ^ t[11 * 256 + (int) ((a >>> 32) & 0xff)] ^ t[10 * 256 + (int) ((a >>> 40) & 0xff)]
        ^ t[9 * 256 + (int) ((a >>> 48) & 0xff)] ^ t[8 * 256 + (int) (a >>> 56)] ^ fold8(t, b);
  }

  /** The register after 8 bytes whose xor with the register is {@code a} (slicing-by-8 on the first 8 tables). */
  private static long fold8(long[] t, long a) {
    return t[7 * 256 + (int) (a & 0xff)] ^ t[6 * 256 + (int) ((a >>> 8) & 0xff)]
        ^ t[5 * 256 + (int) ((a >>> 16) & 0xff)] ^ t[4 * 256 + (int) ((a >>> 24) & 0xff)]
        ^ t[3 * 256 + (int) ((a >>> 32) & 0xff)] ^ t[2 * 256 + (int) ((a >>> 40) & 0xff)]
        ^ t[256 + (int) ((a >>> 48) & 0xff)] ^ t[(int) (a >>> 56)];
  }

  /**
   * Continues a finished CRC over the remaining bytes of {@code buf} (heap or direct), leaving its position alone.
   *
   * @return the CRC of the data so far followed by {@code buf[position, limit)}
   */
  public static long update(long crc, ByteBuffer buf) {
    if (buf.remaining() >= NATIVE_MIN && IsalCrc64.available()) {
      return IsalCrc64.update(crc, buf);
    }
    return tableUpdate(crc, buf);
  }

  /** {@link #update(long, ByteBuffer)} by the table method alone. */
  static long tableUpdate(long crc, ByteBuffer buf) {
    if (buf.hasArray()) {
      return tableUpdate(crc, buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
    }
    ByteBuffer le = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int i = buf.position();
    int end = buf.limit();
    long[] scratch = end - i >= 4 * LANE ? new long[4 * STEP] : null;
    for (; end - i >= 4 * LANE; i += 4 * LANE) {
      crc = lanes(crc, le, i, scratch);
    }
    long c = ~crc;
    long[] t = T;
    while (end - i >= 16) {
      long a = le.getLong(i) ^ c;
      long b = le.getLong(i + 8);
      c = fold16(t, a, b);
      i += 16;
    }
    while (i < end) {
      c = t[(int) ((c ^ buf.get(i++)) & 0xff)] ^ (c >>> 8);
    }
    return ~c;
  }

  /**
   * The CRC of two adjacent pieces from their CRCs (zlib's {@code crc32_combine} method: the first CRC shifted over
   * {@code len2} zero bytes by multiplying with x^(8 len2) mod P, then xor-ed with the second).
   *
   * @param crc1 the CRC of the first piece
   * @param crc2 the CRC of the second piece
   * @param len2 the second piece's length in bytes (>= 0)
   * @return the CRC of the first piece followed by the second
   */
  public static long combine(long crc1, long crc2, long len2) {
    if (len2 < 0) {
      throw new IllegalArgumentException("negative length " + len2);
    }
    return multModP(x2nModP(len2, 3), crc1) ^ crc2;
  }

  /** a * b mod P in the reflected bit order. */
  private static long multModP(long a, long b) {
    long p = 0;
    for (long m = 1L << 63; m != 0; m >>>= 1) {
      if ((a & m) != 0) {
        p ^= b;
      }
      b = (b & 1) != 0 ? (b >>> 1) ^ POLY : b >>> 1;
    }
    return p;
  }

  /** x^(n * 2^k) mod P. */
  private static long x2nModP(long n, int k) {
    long p = 1L << 63; // x^0
    while (n != 0) {
      if ((n & 1) != 0) {
        p = multModP(X2N[k & 63], p);
      }
      n >>>= 1;
      k++;
    }
    return p;
  }
}
