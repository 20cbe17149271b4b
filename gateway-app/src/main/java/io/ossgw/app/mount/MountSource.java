package io.ossgw.app.mount;

import io.ossgw.core.config.EngineConfig;

/**
 * The first argument of {@code ossgw mount}, in ossfs's {@code BUCKET[:/PREFIX]} form.
 *
 * @param bucket the bucket name
 * @param prefix the mounted sub-path as a key prefix: "" for the whole bucket, else {@code "a/b/"}
 */
public record MountSource(String bucket, String prefix) {

  /**
   * Parses {@code bucket}, {@code bucket:/a/b} or {@code bucket:a/b/}.
   *
   * @throws IllegalArgumentException for an empty bucket or a name OSS would never accept
   */
  public static MountSource parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw new IllegalArgumentException("missing BUCKET[:/PREFIX]");
    }
    int colon = spec.indexOf(':');
    String bucket = colon < 0 ? spec : spec.substring(0, colon);
    String path = colon < 0 ? "" : spec.substring(colon + 1);
    return of(bucket, path);
  }

  /** A bucket and an optional sub-path ("/a/b", "a/b/", "" or null). */
  public static MountSource of(String bucket, String subPath) {
    // OSS bucket names: 3-63 characters of lower-case letters, digits and '-'; checked here so that a typo such as
    // "My_Bucket" fails with a clear message instead of a signature error from the server.
    if (bucket == null || !bucket.matches("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]")) {
      throw new IllegalArgumentException("invalid bucket name '" + bucket
          + "': 3-63 characters of lower-case letters, digits and '-'");
    }
    return new MountSource(bucket, EngineConfig.normalizePrefix(subPath));
  }

  /** {@code bucket} or {@code bucket:/a/b}, as ossfs writes it. */
  @Override
  public String toString() {
    return prefix.isEmpty() ? bucket : bucket + ":/" + prefix.substring(0, prefix.length() - 1);
  }
}
