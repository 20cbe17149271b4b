package io.ossgw.core.store;

/**
 * The result of a ranged GetObject.
 *
 * @param bytesRead bytes copied into the caller's buffer (0 at or past the end of the object)
 * @param etag the ETag of the object that served the bytes, without quotes
 * @param objectSize the object's total size from {@code Content-Range}, or -1 if unknown (0-byte reads)
 */
public record RangeRead(int bytesRead, String etag, long objectSize) {}
