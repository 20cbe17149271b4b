package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.OSS;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.ObjectMetadata;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A 200 MB PUT and GET streamed through the directory store, checked by MD5 on both sides. */
class LargeObjectTest {
    private static final long SIZE = 200L * 1024 * 1024;

    @TempDir
    Path dir;

    /** Generates SIZE pseudo-random bytes on the fly and hashes them as they are read. */
    private static final class Generated extends InputStream {
        private final MessageDigest md;
        private long left = SIZE;
        private long state = 0x9E3779B97F4A7C15L;

        Generated(MessageDigest md) {
            this.md = md;
        }

        @Override
        public int read() {
            byte[] b = new byte[1];
            return read(b, 0, 1) < 0 ? -1 : b[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            for (int i = 0; i < n; i++) {
                state ^= state << 13;
                state ^= state >>> 7;
                state ^= state << 17;
                b[off + i] = (byte) state;
            }
            md.update(b, off, n);
            left -= n;
            return n;
        }
    }

    @Test
    void streamingPutAndGet200Mb() throws Exception {
        try (OssEmulator emu = OssEmulator.builder().dataDir(dir).bucket("big").credentials(Sdk.AK, Sdk.SK).build().start()) {
            OSS oss = Sdk.client(emu, SignVersion.V1);
            MessageDigest sent = MessageDigest.getInstance("MD5");
            ObjectMetadata meta = new ObjectMetadata();
            meta.setContentLength(SIZE);
            String etag = oss.putObject("big", "blob", new Generated(sent), meta).getETag();
            String sentHex = HexFormat.of().withUpperCase().formatHex(sent.digest());
            assertThat(etag).isEqualTo(sentHex);
            MessageDigest got = MessageDigest.getInstance("MD5");
            long n = 0;
            try (OSSObject o = oss.getObject("big", "blob"); InputStream in = o.getObjectContent()) {
                byte[] buf = new byte[1 << 16];
                int r;
                while ((r = in.read(buf)) > 0) {
                    got.update(buf, 0, r);
                    n += r;
                }
            }
            assertThat(n).isEqualTo(SIZE);
            assertThat(HexFormat.of().withUpperCase().formatHex(got.digest())).isEqualTo(sentHex);
            try (Stream<Path> files = Files.walk(dir.resolve("buckets/big/objects"))) {
                assertThat(files.filter(p -> p.toString().endsWith(".data")).mapToLong(p -> p.toFile().length()).sum())
                        .isEqualTo(SIZE);
            }
            oss.shutdown();
        }
    }
}
