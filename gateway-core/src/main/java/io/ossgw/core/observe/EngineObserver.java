package io.ossgw.core.observe;

/**
 * Receives an engine's events for metrics. Every method has an empty default, so an implementation overrides what it
 * records; {@link #NONE} records nothing. Called on I/O threads: implementations must be thread-safe, cheap and
 * never throw or block.
 */
public interface EngineObserver {
  /** Records nothing. */
  EngineObserver NONE = new EngineObserver() {};

  /**
   * One OSS request attempt finished (each retry is an attempt of its own).
   *
   * @param operation the OSS API name: HeadObject, GetObject, ListObjectsV2, PutObject, CopyObject,
   *     InitiateMultipartUpload, UploadPart, UploadPartCopy, CompleteMultipartUpload, AbortMultipartUpload,
   *     AppendObject, DeleteObject, DeleteMultipleObjects
   * @param outcome {@link #OK}, or the failure's {@link io.ossgw.core.store.StoreErrorKind} in lower case
   *     ({@code not_found}, {@code transient}, {@code access_denied}, ...): a small fixed set, fit for a metric label
   * @param nanos wall time of the attempt in nanoseconds
   */
  default void ossRequest(String operation, String outcome, long nanos) {}

  /** A transient failure of {@code operation} is retried (ossfs {@code retries=}). */
  default void ossRetry(String operation) {}

  /**
   * Lookups in one of the engine's caches.
   *
   * @param cache {@code stat} (attributes and "no such file" answers), {@code dir} (directory listings) or
   *     {@code disk} (the {@code use_cache} data cache: one lookup per ranged read pinned to an ETag)
   * @param hit whether the lookup found a live entry
   * @param count number of lookups
   */
  default void cacheLookups(String cache, boolean hit, int count) {}

  /** An entry left a cache because of its size bound or its TTL (not an explicit invalidation). */
  default void cacheEviction(String cache) {}

  /** The outcome label of a successful request. */
  String OK = "ok";
}
