package io.ossgw.emulator.storage;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

    /**
     * Copies {@code in} to {@code out} until end of stream. For bodies larger than one buffer the CRC of each
     * buffer is computed on a helper virtual thread while this thread hashes MD5, writes and reads the next
     * buffer (two buffers alternate), so the two checksums cost about one instead of adding up.
     */
    static Result copy(InputStream in, BlobWriter out, long crcStart) throws IOException {
        MessageDigest md = md5();
        byte[][] bufs = {new byte[BUFFER], null};
        int cur = 0;
        long crc = crcStart;
        long size = 0;
        Future<Long> pending = null;
        int n;
        try {
            while ((n = in.readNBytes(bufs[cur], 0, BUFFER)) > 0) {
                byte[] buf = bufs[cur];
                md.update(buf, 0, n);
                out.write(buf, 0, n);
                size += n;
                if (pending == null && n < BUFFER) {
                    crc = Crc64.update(crc, buf, 0, n); // small body: no helper thread
                    continue;
                }
                if (pending != null) {
                    crc = pending.get();
                }
                long base = crc;
                int len = n;
                pending = CRC_POOL.submit(() -> Crc64.update(base, buf, 0, len));
                cur ^= 1;
                if (bufs[cur] == null) {
                    bufs[cur] = new byte[BUFFER];
                }
            }
            if (pending != null) {
                crc = pending.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException("checksum failed", e.getCause());
        } finally {
            if (pending != null && !pending.isDone()) {
                pending.cancel(false);
            }
        }
        return new Result(size, md.digest(), crc);
    }

    private static final ExecutorService CRC_POOL = Executors.newVirtualThreadPerTaskExecutor();
}
