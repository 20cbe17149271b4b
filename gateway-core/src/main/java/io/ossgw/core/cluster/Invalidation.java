package io.ossgw.core.cluster;

import java.util.Objects;

/**
 * "This object changed: drop what you cached about it", sent by the gateway that changed it to every other gateway of
 * the cluster. Named by bucket and object key, not by a mount's path, so every engine of the bucket (whatever its
 * prefix) can map it to its own path.
 *
 * @param origin the node id of the sender (a node ignores its own messages)
 * @param bucket the bucket
 * @param key the object key without a trailing slash ({@code "dir/file"}; {@code "dir"} for a directory, {@code ""}
 *     for the bucket's root)
 * @param tree also everything below the key (a renamed or removed directory)
 */
public record Invalidation(String origin, String bucket, String key, boolean tree) {
  public Invalidation {
    Objects.requireNonNull(origin);
    Objects.requireNonNull(bucket);
    Objects.requireNonNull(key);
    if (origin.indexOf('\n') >= 0 || bucket.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("node id and bucket name must not hold a newline");
    }
  }

  private static final String VERSION = "1";

  /** The message text: {@code 1\nORIGIN\nT|P\nBUCKET\nKEY} (the key last: it may hold newlines). */
  public String encode() {
    return VERSION + "\n" + origin + "\n" + (tree ? "T" : "P") + "\n" + bucket + "\n" + key;
  }

  /**
   * Parses {@link #encode}'s text.
   *
   * @throws IllegalArgumentException for anything else (another version, a foreign message on the channel)
   */
  public static Invalidation decode(String text) {
    String[] f = text.split("\n", 5);
    if (f.length != 5 || !f[0].equals(VERSION) || !(f[2].equals("T") || f[2].equals("P"))) {
      throw new IllegalArgumentException("not an ossgw invalidation: " + abbreviate(text));
    }
    return new Invalidation(f[1], f[3], f[4], f[2].equals("T"));
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }

  /**
   * The path of this key in a mount of {@code bucket} at {@code prefix}, or null when the key is not below the prefix
   * (or is another bucket's).
   *
   * @param prefix the engine's prefix: "" for the whole bucket, else {@code "a/b/"}
   * @return {@code "/"} for the prefix itself, else {@code "/" + the rest of the key}
   */
  public String pathIn(String bucket, String prefix) {
    if (!this.bucket.equals(bucket)) {
      return null;
    }
    if (prefix.isEmpty()) {
      return "/" + key;
    }
    String bare = prefix.substring(0, prefix.length() - 1);
    if (key.equals(bare)) {
      return "/";
    }
    return key.startsWith(prefix) ? "/" + key.substring(prefix.length()) : null;
  }

  /**
   * Whether a key of a mount at {@code prefix} is above the mount's root: a tree invalidation of {@code "a"} reaches a
   * mount of {@code "a/b/"} (its whole tree).
   */
  public boolean covers(String bucket, String prefix) {
    return tree && this.bucket.equals(bucket) && !prefix.isEmpty() && (key.isEmpty() || prefix.startsWith(key + "/"));
  }
}
