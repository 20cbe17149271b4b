package io.ossgw.app.serve;

import io.ossgw.core.config.EngineConfig;

/** Mounts with the same endpoint, bucket and prefix share one engine (one cache, one memory budget). */
record EngineKey(String endpoint, String bucket, String prefix) {
  /** The key of an engine's configuration. */
  static EngineKey of(EngineConfig ec) {
    return new EngineKey(ec.endpoint(), ec.bucket(), ec.prefix());
  }

  @Override
  public String toString() {
    return bucket + (prefix.isEmpty() ? "" : ":/" + prefix) + " at " + endpoint;
  }
}
