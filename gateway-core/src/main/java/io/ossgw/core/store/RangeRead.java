package io.ossgw.core.store;

/**
 * The result of a ranged GetObject.
 *
 * @param bytesRead bytes copied into the caller's buffer (0 at or past the end of the object)
 * @param etag the ETag of the object that served the bytes, without quotes
 * @param objectSize the object's total size from {@code Content-Range}, or -1 if unknown (0-byte reads)
 * @param object what the response headers tell about the object (the same fields as HeadObject: ETag, total size,
 *     Last-Modified, type, Content-Type, {@code x-oss-meta-*}), so a reader learns its metadata without a HEAD; null
 *     when the bytes did not come from a GET (local cache, 0-byte reads)
 */
public record RangeRead(int bytesRead, String etag, long objectSize, ObjectInfo object) {

  /** A read without the object's metadata (served from a cache, or nothing read). */
  public RangeRead(int bytesRead, String etag, long objectSize) {
    this(bytesRead, etag, objectSize, null);
  }
}
