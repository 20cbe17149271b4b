package io.ossgw.emulator.storage;

/**
 * One uploaded part.
 *
 * @param number       1..10000
 * @param etag         upper-case hex MD5 of the part, no quotes
 * @param size         bytes
 * @param crc64        CRC-64/XZ of the part
 * @param lastModified epoch ms
 * @param blob         the content
 */
public record Part(int number, String etag, long size, long crc64, long lastModified, Blob blob) {
    /** Same part with its content moved. */
    public Part withBlob(Blob b) {
        return new Part(number, etag, size, crc64, lastModified, b);
    }
}
