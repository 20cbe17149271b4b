package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.ClientException;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ListMultipartUploadsRequest;
import com.aliyun.oss.model.OSSObject;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 D2 and item 3: heap pressure answers uploads 503 SlowDown and serves the rest; a failing data directory
 * answers 500 InternalError (not a dropped connection) and keeps the stored version; a lost reply is carried out
 * but never answered. Through the SDK (no retries, so each refusal is seen as it is sent).
 */
class PressureAndStorageErrorsTest {
    @TempDir
    Path dir;

    private static byte[] read(OSS oss, String bucket, String key) throws Exception {
        try (OSSObject o = oss.getObject(bucket, key)) {
            return Sdk.readAll(o.getObjectContent());
        }
    }

    @Test
    void heapPressureRefusesOnlyWhatGrowsTheStoreWithSlowDown() throws Exception {
        AtomicBoolean pressure = new AtomicBoolean();
        try (OssEmulator emu = OssEmulator.builder().bucket("hpb").credentials(Sdk.AK, Sdk.SK)
                .heapPressure(pressure::get).build().start()) {
            OSS oss = Sdk.client(emu, SignVersion.V4);
            try {
                oss.putObject("hpb", "kept", new ByteArrayInputStream("v1".getBytes()));
                pressure.set(true);
                for (Runnable grows : new Runnable[] {
                    () -> oss.putObject("hpb", "new", new ByteArrayInputStream("x".getBytes())),
                    () -> oss.copyObject("hpb", "kept", "hpb", "copy"),
                    () -> oss.initiateMultipartUpload(new InitiateMultipartUploadRequest("hpb", "mpu"))}) {
                    assertThatThrownBy(grows::run).isInstanceOfSatisfying(OSSException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo("SlowDown");
                        assertThat(e.getMessage()).contains("Java heap");
                    });
                }
                assertThat(read(oss, "hpb", "kept")).isEqualTo("v1".getBytes()); // reads, lists, deletes go on
                assertThat(oss.listObjectsV2("hpb").getKeyCount()).isEqualTo(1);
                try (RawHttp http = new RawHttp(emu.port())) {
                    assertThat(http.send("GET /-/health HTTP/1.1\r\nHost: x", null, false).text()).contains("ok");
                }
                oss.deleteObject("hpb", "kept");
                pressure.set(false);
                oss.putObject("hpb", "new", new ByteArrayInputStream("x".getBytes()));
                assertThat(read(oss, "hpb", "new")).isEqualTo("x".getBytes());
                assertThat(emu.counters().get("PutObject")).isEqualTo(3);
            } finally {
                oss.shutdown();
            }
        }
    }

    @Test
    void aFailingDataDirectoryIsInternalErrorAndKeepsTheStoredVersion() throws Exception {
        try (OssEmulator emu = OssEmulator.builder().dataDir(dir).bucket("sfb").credentials(Sdk.AK, Sdk.SK)
                .build().start()) {
            OSS oss = Sdk.client(emu, SignVersion.V4);
            try {
                oss.putObject("sfb", "k", new ByteArrayInputStream("stored".getBytes()));
                // New content is staged in DIR/tmp: with a file in its place every write fails with an I/O error,
                // as it would on a full disk (src/test/python/test_emulator_disk_full.py fills a real one).
                Path tmp = dir.resolve("tmp");
                Files.delete(tmp);
                Files.writeString(tmp, "not a directory");
                assertThatThrownBy(() -> oss.putObject("sfb", "k", new ByteArrayInputStream(Sdk.bytes(300_000, 1))))
                        .isInstanceOfSatisfying(OSSException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo("InternalError");
                            assertThat(e.getMessage()).contains("store failed");
                        });
                assertThat(read(oss, "sfb", "k")).isEqualTo("stored".getBytes()); // same connection, same version
                Files.delete(tmp);
                Files.createDirectory(tmp);
                oss.putObject("sfb", "k", new ByteArrayInputStream("replaced".getBytes()));
                assertThat(read(oss, "sfb", "k")).isEqualTo("replaced".getBytes());
            } finally {
                oss.shutdown();
            }
        }
    }

    @Test
    void aLostReplyIsCarriedOutButNeverAnswered() throws Exception {
        try (OssEmulator emu = OssEmulator.builder().bucket("lrb").credentials(Sdk.AK, Sdk.SK).build().start()) {
            OSS oss = Sdk.client(emu, SignVersion.V4);
            try {
                emu.faults().dropRepliesNext(1, Set.of("InitiateMultipartUpload"));
                assertThatThrownBy(() -> oss.initiateMultipartUpload(new InitiateMultipartUploadRequest("lrb", "k")))
                        .isInstanceOf(ClientException.class);
                assertThat(oss.listMultipartUploads(new ListMultipartUploadsRequest("lrb")).getMultipartUploads())
                        .singleElement().satisfies(u -> assertThat(u.getKey()).isEqualTo("k"));
                String id = oss.initiateMultipartUpload(new InitiateMultipartUploadRequest("lrb", "k")).getUploadId();
                assertThat(id).isNotEmpty(); // used up: the next one is answered
                try (RawHttp http = new RawHttp(emu.port())) {
                    http.send("POST /-/faults?dropReplies=1&ops=PutObject HTTP/1.1\r\nHost: x\r\nContent-Length: 0",
                            null, false);
                }
                assertThatThrownBy(() -> oss.putObject("lrb", "p", new ByteArrayInputStream("body".getBytes())))
                        .isInstanceOf(ClientException.class);
                assertThat(read(oss, "lrb", "p")).isEqualTo("body".getBytes());
                assertThat(emu.faults().toJson()).contains("\"dropReplies\":0").contains("\"injectedResets\":2");
            } finally {
                oss.shutdown();
            }
        }
    }
}
