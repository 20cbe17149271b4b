package io.ossgw.core.store;

/**
 * The reply to AppendObject.
 *
 * @param nextPosition {@code x-oss-next-append-position}: the object's length after the append
 * @param crc64 the running CRC-64 as an unsigned decimal string, or null
 * @param etag the object's new ETag (without quotes), or null when the reply had none
 */
public record AppendResult(long nextPosition, String crc64, String etag) {

  /** A reply without an ETag. */
  public AppendResult(long nextPosition, String crc64) {
    this(nextPosition, crc64, null);
  }
}
