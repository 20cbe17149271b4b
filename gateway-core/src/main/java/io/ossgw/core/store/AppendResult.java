package io.ossgw.core.store;

/**
 * The reply to AppendObject.
 *
 * @param nextPosition {@code x-oss-next-append-position}: the object's length after the append
 * @param crc64 the running CRC-64 as an unsigned decimal string, or null
 */
public record AppendResult(long nextPosition, String crc64) {}
