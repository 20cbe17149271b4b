package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.OSSObject;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 9 item 13: the in-memory store holds content at about its size, off the Java heap, and refuses uploads over
 * {@code --memory-limit} with an OSS error instead of running out of memory. Through the aliyun SDK.
 */
class MemoryLimitTest {
    private static final int MIB = 1 << 20;
    private OssEmulator emu;
    private OSS oss;

    private void start(long limit) {
        emu = OssEmulator.builder().bucket("mlb").credentials(Sdk.AK, Sdk.SK).memoryLimit(limit).build().start();
        oss = Sdk.client(emu, SignVersion.V1);
    }

    @AfterEach
    void stop() {
        oss.shutdown();
        emu.close();
    }

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    private void put(String key, byte[] data) {
        ObjectMetadata m = new ObjectMetadata();
        m.setContentLength(data.length);
        oss.putObject("mlb", key, new ByteArrayInputStream(data), m);
    }

    private byte[] get(String key) throws Exception {
        try (OSSObject o = oss.getObject("mlb", key)) {
            return Sdk.readAll(o.getObjectContent());
        }
    }

    @Test
    void uploadOverTheLimitIsRefusedWithInsufficientStorageAndTheStoreGoesOn() throws Exception {
        start(10L * MIB);
        byte[] a = bytes(4 * MIB, 1);
        byte[] b = bytes(4 * MIB, 2);
        put("a", a);
        put("b", b);
        assertThatThrownBy(() -> put("c", bytes(4 * MIB, 3)))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("InsufficientStorage"));
        assertThatThrownBy(() -> put("huge", bytes(11 * MIB, 4)))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("InsufficientStorage"));
        assertThat(Arrays.equals(get("b"), b)).isTrue();

        oss.deleteObject("mlb", "a"); // its memory is free once collected: the store finds that out itself
        byte[] c = bytes(4 * MIB, 3);
        put("c", c);
        assertThat(Arrays.equals(get("c"), c)).isTrue();
        assertThat(Arrays.equals(get("b"), b)).isTrue();
    }

    @Test
    void multipartPartsCountAgainstTheLimit() {
        start(8L * MIB);
        String id = oss.initiateMultipartUpload(new com.aliyun.oss.model.InitiateMultipartUploadRequest("mlb", "mp"))
                .getUploadId();
        com.aliyun.oss.model.UploadPartRequest p = new com.aliyun.oss.model.UploadPartRequest("mlb", "mp", id, 1,
                new ByteArrayInputStream(bytes(5 * MIB, 5)), 5 * MIB);
        oss.uploadPart(p);
        com.aliyun.oss.model.UploadPartRequest q = new com.aliyun.oss.model.UploadPartRequest("mlb", "mp", id, 2,
                new ByteArrayInputStream(bytes(5 * MIB, 6)), 5 * MIB);
        assertThatThrownBy(() -> oss.uploadPart(q))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("InsufficientStorage"));
    }

    @Test
    void storedContentDoesNotLiveOnTheJavaHeap() throws Exception {
        start(-1);
        byte[] block = bytes(MIB, 7);
        long before = heapUsedAfterGc();
        for (int i = 0; i < 8; i++) {
            ObjectMetadata m = new ObjectMetadata();
            m.setContentLength(8L * MIB);
            oss.putObject("mlb", "big" + i, repeat(block, 8), m);
        }
        long grown = heapUsedAfterGc() - before;
        assertThat(grown).as("heap growth for 64 MiB stored").isLessThan(16L * MIB);
        try (OSSObject o = oss.getObject("mlb", "big7"); InputStream in = o.getObjectContent()) {
            byte[] first = in.readNBytes(MIB);
            assertThat(Arrays.equals(first, block)).isTrue();
        }
    }

    private static InputStream repeat(byte[] block, int times) {
        return new InputStream() {
            long pos;
            final long end = (long) block.length * times;

            @Override
            public int read() {
                return pos < end ? block[(int) (pos++ % block.length)] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (pos >= end) {
                    return -1;
                }
                int within = (int) (pos % block.length);
                int n = (int) Math.min(len, Math.min(block.length - within, end - pos));
                System.arraycopy(block, within, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    private static long heapUsedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
