package io.ossgw.core.meta;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Stable 64-bit file ids derived from object keys: the first 8 bytes of SHA-256 of the key (directories without
 * their trailing slash, so a marker and an implicit prefix give the same id). The same key gives the same id on every
 * gateway and after every restart; the root is always 1. Collisions are possible in theory (2^-64 per pair).
 */
public final class Inodes {
  /** The root's id (FUSE_ROOT_ID). */
  public static final long ROOT = 1;

  /**
   * SHA-256 digests for reuse, taken for one id and returned. Not a ThreadLocal: the NFS server runs each call on a new
   * virtual thread, which made a new digest (a provider lookup, 2-3 % of a small-file write's Java samples) for every
   * id. Holds at most as many digests as ids were ever computed at once.
   */
  private static final ConcurrentLinkedQueue<MessageDigest> SHA = new ConcurrentLinkedQueue<>();

  private static MessageDigest sha() {
    MessageDigest d = SHA.poll();
    if (d != null) {
      return d;
    }
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private Inodes() {}

  /** The id of a key (a trailing slash is ignored); never 0 or 1. */
  public static long of(String key) {
    String k = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
    MessageDigest sha = sha();
    byte[] d = sha.digest(k.getBytes(StandardCharsets.UTF_8)); // digest() resets it for the next user
    SHA.offer(sha);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xff);
    }
    v &= Long.MAX_VALUE; // positive: some tools print st_ino as signed
    return v <= ROOT ? v + 2 : v;
  }
}
