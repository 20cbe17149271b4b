package io.ossgw.core.store;

/**
 * A finished part of a multipart upload, as CompleteMultipartUpload needs it.
 *
 * @param partNumber 1..10000
 * @param etag without quotes
 * @param size bytes in the part
 * @param crc64 the part's CRC-64 ({@code x-oss-hash-crc64ecma}, checked against the bytes sent) or null when unknown
 *     (UploadPartCopy): CompleteMultipartUpload's CRC is checked only when every part's is known
 */
public record PartETag(int partNumber, String etag, long size, Long crc64) {
  /** A part whose CRC-64 is not known. */
  public PartETag(int partNumber, String etag, long size) {
    this(partNumber, etag, size, null);
  }
}
