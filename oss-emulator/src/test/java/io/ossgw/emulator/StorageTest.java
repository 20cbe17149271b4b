package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.AppendObjectRequest;
import com.aliyun.oss.model.CompleteMultipartUploadRequest;
import com.aliyun.oss.model.GetObjectRequest;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ListPartsRequest;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.PartETag;
import com.aliyun.oss.model.UploadPartRequest;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Directory-backed persistence across restarts, and memory mode. */
class StorageTest {
    @TempDir
    Path dir;

    private static OssEmulator start(Path data) {
        return OssEmulator.builder().dataDir(data).bucket("persist").credentials(Sdk.AK, Sdk.SK).build().start();
    }

    @Test
    void directoryStoreSurvivesRestart() throws Exception {
        byte[] part1 = Sdk.bytes(120 * 1024, 1);
        String uploadId;
        PartETag firstPart;
        String etag;
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V4);
            oss.createBucket("second");
            ObjectMetadata meta = new ObjectMetadata();
            meta.addUserMetadata("mode", "33188");
            meta.setContentType("text/plain");
            meta.setCacheControl("no-cache");
            etag = oss.putObject("persist", "dir/a.txt", new ByteArrayInputStream("persisted".getBytes()), meta).getETag();
            oss.putObject("persist", "dir/", new ByteArrayInputStream(new byte[0]));
            oss.putObject("second", "k", new ByteArrayInputStream("2".getBytes()));
            oss.putObject("persist", "dir/a.txt.old", new ByteArrayInputStream("x".getBytes()));
            oss.deleteObject("persist", "dir/a.txt.old");
            AppendObjectRequest ap = new AppendObjectRequest("persist", "log", new ByteArrayInputStream("abc".getBytes()));
            ap.setPosition(0L);
            oss.appendObject(ap);
            uploadId = oss.initiateMultipartUpload(new InitiateMultipartUploadRequest("persist", "big.bin")).getUploadId();
            firstPart = oss.uploadPart(new UploadPartRequest("persist", "big.bin", uploadId, 1,
                    new ByteArrayInputStream(part1), part1.length)).getPartETag();
            oss.shutdown();
        }
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V1);
            ObjectMetadata h = oss.getObjectMetadata("persist", "dir/a.txt");
            assertThat(h.getETag()).isEqualTo(etag);
            assertThat(h.getUserMetadata()).containsEntry("mode", "33188");
            assertThat(h.getContentType()).isEqualTo("text/plain");
            assertThat(h.getCacheControl()).isEqualTo("no-cache");
            try (OSSObject o = oss.getObject("persist", "dir/a.txt")) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo("persisted".getBytes());
            }
            assertThat(oss.listObjectsV2("persist").getObjectSummaries()).extracting(s -> s.getKey())
                    .containsExactly("dir/", "dir/a.txt", "log");
            assertThat(oss.doesObjectExist("second", "k")).isTrue();
            // the appendable object continues where it stopped
            AppendObjectRequest ap = new AppendObjectRequest("persist", "log", new ByteArrayInputStream("de".getBytes()));
            ap.setPosition(3L);
            assertThat(oss.appendObject(ap).getNextPosition()).isEqualTo(5);
            // the multipart upload in progress is still there and can be completed
            assertThat(oss.listParts(new ListPartsRequest("persist", "big.bin", uploadId)).getParts()).hasSize(1);
            byte[] part2 = Sdk.bytes(1000, 2);
            PartETag second = oss.uploadPart(new UploadPartRequest("persist", "big.bin", uploadId, 2,
                    new ByteArrayInputStream(part2), part2.length)).getPartETag();
            oss.completeMultipartUpload(new CompleteMultipartUploadRequest("persist", "big.bin", uploadId,
                    new ArrayList<>(List.of(firstPart, second))));
            assertThat(oss.getObjectMetadata("persist", "big.bin").getContentLength()).isEqualTo(part1.length + part2.length);
            oss.shutdown();
        }
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V1);
            try (OSSObject o = oss.getObject("persist", "log")) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo("abcde".getBytes());
            }
            assertThat(oss.getObjectMetadata("persist", "big.bin").getObjectType()).isEqualTo("Multipart");
            oss.shutdown();
        }
        try (Stream<Path> tmp = Files.list(dir.resolve("tmp"))) {
            assertThat(tmp).isEmpty();
        }
    }

    @Test
    void orphanDataFilesAreRemovedAtStart() throws Exception {
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V1);
            oss.putObject("persist", "k", new ByteArrayInputStream("v".getBytes()));
            oss.shutdown();
        }
        Path objects = dir.resolve("buckets/persist/objects");
        Path sub;
        try (Stream<Path> s = Files.list(objects)) {
            sub = s.findFirst().orElseThrow();
        }
        Path orphan = sub.resolve("deadbeef.1.data"); // as left by a crash between the data and meta renames
        Files.writeString(orphan, "torn");
        try (OssEmulator emu = start(dir)) {
            assertThat(orphan).doesNotExist();
            OSS oss = Sdk.client(emu, SignVersion.V1);
            try (OSSObject o = oss.getObject("persist", "k")) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo("v".getBytes());
            }
            oss.shutdown();
        }
    }

    @Test
    void memoryModeLargeObjectAcrossChunks() throws Exception {
        try (OssEmulator emu = OssEmulator.builder().bucket("mem").credentials(Sdk.AK, Sdk.SK).build().start()) {
            assertThat(emu.storageDescription()).isEqualTo("memory");
            OSS oss = Sdk.client(emu, SignVersion.V1);
            byte[] data = Sdk.bytes(5 * 1024 * 1024 + 17, 3);
            oss.putObject("mem", "big", new ByteArrayInputStream(data));
            GetObjectRequest req = new GetObjectRequest("mem", "big");
            req.setRange(1024 * 1024 - 5, 3 * 1024 * 1024 + 5);
            try (OSSObject o = oss.getObject(req)) {
                assertThat(Sdk.readAll(o.getObjectContent()))
                        .isEqualTo(java.util.Arrays.copyOfRange(data, 1024 * 1024 - 5, 3 * 1024 * 1024 + 6));
            }
            oss.copyObject("mem", "big", "mem", "big-copy");
            try (OSSObject o = oss.getObject("mem", "big-copy")) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo(data);
            }
            oss.shutdown();
        }
    }

    @Test
    void concurrentPutsToOneKeyAreLastWriterWins() throws Exception {
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V1);
            List<byte[]> bodies = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                bodies.add(Sdk.bytes(200_000, 100 + i));
            }
            ExecutorService pool = Executors.newFixedThreadPool(8);
            List<Future<?>> fs = new ArrayList<>();
            for (byte[] b : bodies) {
                fs.add(pool.submit(() -> oss.putObject("persist", "race", new ByteArrayInputStream(b))));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            pool.shutdown();
            byte[] got;
            try (OSSObject o = oss.getObject("persist", "race")) {
                got = Sdk.readAll(o.getObjectContent());
            }
            assertThat(bodies).anySatisfy(b -> assertThat(b).isEqualTo(got));
            assertThat(oss.getObjectMetadata("persist", "race").getETag()).isEqualTo(Sdk.md5Hex(got));
            try (Stream<Path> files = Files.walk(dir.resolve("buckets/persist/objects"))) {
                assertThat(files.filter(p -> p.toString().endsWith(".data")).count()).isEqualTo(1);
            }
            oss.shutdown();
        }
    }

    @Test
    void forbidOverwriteAndNotAppendable() {
        try (OssEmulator emu = start(dir)) {
            OSS oss = Sdk.client(emu, SignVersion.V4);
            oss.putObject("persist", "once", new ByteArrayInputStream("1".getBytes()));
            ObjectMetadata m = new ObjectMetadata();
            m.setHeader("x-oss-forbid-overwrite", "true");
            assertThatThrownBy(() -> oss.putObject("persist", "once", new ByteArrayInputStream("2".getBytes()), m))
                    .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("FileAlreadyExists"));
            AppendObjectRequest ap = new AppendObjectRequest("persist", "once", new ByteArrayInputStream("x".getBytes()));
            ap.setPosition(1L);
            assertThatThrownBy(() -> oss.appendObject(ap))
                    .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("ObjectNotAppendable"));
            oss.shutdown();
        }
    }
}
