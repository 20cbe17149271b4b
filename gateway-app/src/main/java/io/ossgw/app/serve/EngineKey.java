package io.ossgw.app.serve;

/** Mounts with the same endpoint, bucket and prefix share one engine (one cache, one memory budget). */
record EngineKey(String endpoint, String bucket, String prefix) {
  @Override
  public String toString() {
    return bucket + (prefix.isEmpty() ? "" : ":/" + prefix) + " at " + endpoint;
  }
}
