package io.ossgw.emulator.storage;

import java.util.SortedMap;

/**
 * Everything known about one stored object.
 *
 * @param key          object key (1..1023 UTF-8 bytes)
 * @param size         content length in bytes
 * @param etag         ETag without quotes: upper-case hex MD5, or {@code HEX-N} for multipart
 * @param lastModified epoch milliseconds
 * @param contentType  Content-Type as stored
 * @param type         Normal, Multipart or Appendable
 * @param crc64        CRC-64/XZ of the content (finished value, printed unsigned)
 * @param storageClass {@code Standard} unless the client set another
 * @param userMeta     {@code x-oss-meta-*} names (lower case, no prefix) to values
 * @param headers      standard headers stored with the object (Cache-Control, ...)
 * @param blob         the content
 */
public record ObjectMeta(String key, long size, String etag, long lastModified, String contentType, ObjectType type,
                         long crc64, String storageClass, SortedMap<String, String> userMeta,
                         SortedMap<String, String> headers, Blob blob) {

    /** Same object with other content reference (after the backend moved it). */
    public ObjectMeta withBlob(Blob b) {
        return new ObjectMeta(key, size, etag, lastModified, contentType, type, crc64, storageClass, userMeta, headers, b);
    }

    /** Same content under {@code newKey} with metadata {@code m} and a new time. */
    public ObjectMeta rewrite(String newKey, NewMeta m, long time) {
        return new ObjectMeta(newKey, size, etag, time, m.contentType(), type, crc64, m.storageClass(), m.userMeta(),
                m.headers(), blob);
    }
}
