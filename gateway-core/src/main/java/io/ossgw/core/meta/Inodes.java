package io.ossgw.core.meta;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Stable 64-bit file ids derived from object keys: the first 8 bytes of SHA-256 of the key (directories without
 * their trailing slash, so a marker and an implicit prefix give the same id). The same key gives the same id on every
 * gateway and after every restart; the root is always 1. Collisions are possible in theory (2^-64 per pair).
 */
public final class Inodes {
  /** The root's id (FUSE_ROOT_ID). */
  public static final long ROOT = 1;

  private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });

  private Inodes() {}

  /** The id of a key (a trailing slash is ignored); never 0 or 1. */
  public static long of(String key) {
    String k = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
    byte[] d = SHA.get().digest(k.getBytes(StandardCharsets.UTF_8));
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xff);
    }
    v &= Long.MAX_VALUE; // positive: some tools print st_ino as signed
    return v <= ROOT ? v + 2 : v;
  }
}
