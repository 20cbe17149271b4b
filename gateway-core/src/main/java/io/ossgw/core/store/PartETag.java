package io.ossgw.core.store;

/**
 * A finished part of a multipart upload, as CompleteMultipartUpload needs it.
 *
 * @param partNumber 1..10000
 * @param etag without quotes
 * @param size bytes in the part
 */
public record PartETag(int partNumber, String etag, long size) {}
