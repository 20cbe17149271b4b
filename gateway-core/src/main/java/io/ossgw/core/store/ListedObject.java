package io.ossgw.core.store;

import java.time.Instant;

/**
 * One {@code Contents} entry of a ListObjectsV2 page (ListObjectsV2 carries no user metadata).
 *
 * @param key the decoded object key
 * @param size bytes
 * @param etag without quotes
 * @param lastModified LastModified
 * @param objectType Normal, Multipart or Appendable (may be null when the server omits it)
 */
public record ListedObject(String key, long size, String etag, Instant lastModified, String objectType) {}
