package io.ossgw.core.store;

/**
 * The reply to PutObject, CopyObject or CompleteMultipartUpload.
 *
 * @param etag the new object's ETag, without quotes
 * @param crc64 {@code x-oss-hash-crc64ecma} as an unsigned decimal string, or null when the server did not send it
 */
public record WriteResult(String etag, String crc64) {}
