package io.ossgw.nfs.handle;

/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed 64-bit pseudo-random function for short inputs. File handles
 * carry it as a MAC so that a client cannot forge the handle of a file it was never given (handles name files by
 * fileids that are hashes of guessable object keys). Stateless and allocation-free, so any thread may call it.
 */
final class SipHash {
  private final long k0;
  private final long k1;

  /** @param key 16 bytes */
  SipHash(byte[] key) {
    if (key.length != 16) {
      throw new IllegalArgumentException("SipHash key must be 16 bytes");
    }
    this.k0 = le(key, 0);
    this.k1 = le(key, 8);
  }

  long hash(byte[] data, int off, int len) {
    long v0 = 0x736f6d6570736575L ^ k0;
    long v1 = 0x646f72616e646f6dL ^ k1;
    long v2 = 0x6c7967656e657261L ^ k0;
    long v3 = 0x7465646279746573L ^ k1;
    int end = off + len - (len % 8);
    for (int i = off; i < end; i += 8) {
      long m = le(data, i);
      v3 ^= m;
      for (int r = 0; r < 2; r++) {
        v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
        v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
        v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
        v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
      }
      v0 ^= m;
    }
    long b = ((long) len) << 56;
    for (int i = end, shift = 0; i < off + len; i++, shift += 8) {
      b |= (data[i] & 0xffL) << shift;
    }
    v3 ^= b;
    for (int r = 0; r < 2; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    v0 ^= b;
    v2 ^= 0xff;
    for (int r = 0; r < 4; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }

  private static long le(byte[] b, int i) {
    long v = 0;
    for (int j = 7; j >= 0; j--) {
      v = (v << 8) | (b[i + j] & 0xffL);
    }
    return v;
  }
}
