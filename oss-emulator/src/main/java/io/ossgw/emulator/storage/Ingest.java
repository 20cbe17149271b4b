package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import io.ossgw.emulator.util.Crc64;

/**
 * Streams a request body into a {@link BlobWriter}, computing size, MD5 and CRC-64 on the way
 * (256 KiB buffer; the body is never held whole).
 */
final class Ingest {
    static final int BUFFER = 256 * 1024;

    /**
     * @param size  bytes copied
     * @param md5   binary MD5 of the bytes copied
     * @param crc64 CRC continued from the given start value
     */
    record Result(long size, byte[] md5, long crc64) {
    }

    private Ingest() {
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies {@code in} to {@code out} until end of stream. */
    static Result copy(InputStream in, BlobWriter out, long crcStart) throws IOException {
        MessageDigest md = md5();
        byte[] buf = new byte[BUFFER];
        long crc = crcStart;
        long size = 0;
        int n;
        while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
            md.update(buf, 0, n);
            crc = Crc64.update(crc, buf, 0, n);
            out.write(buf, 0, n);
            size += n;
        }
        return new Result(size, md.digest(), crc);
    }
}
