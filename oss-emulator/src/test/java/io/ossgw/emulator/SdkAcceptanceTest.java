package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.common.utils.CRC64;
import com.aliyun.oss.model.AppendObjectRequest;
import com.aliyun.oss.model.AppendObjectResult;
import com.aliyun.oss.model.CompleteMultipartUploadRequest;
import com.aliyun.oss.model.CompleteMultipartUploadResult;
import com.aliyun.oss.model.CopyObjectRequest;
import com.aliyun.oss.model.CopyObjectResult;
import com.aliyun.oss.model.DeleteObjectsRequest;
import com.aliyun.oss.model.DeleteObjectsResult;
import com.aliyun.oss.model.GetObjectRequest;
import com.aliyun.oss.model.InitiateMultipartUploadRequest;
import com.aliyun.oss.model.ListObjectsRequest;
import com.aliyun.oss.model.ListObjectsV2Request;
import com.aliyun.oss.model.ListObjectsV2Result;
import com.aliyun.oss.model.ListPartsRequest;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.OSSObjectSummary;
import com.aliyun.oss.model.ObjectListing;
import com.aliyun.oss.model.ObjectMetadata;
import com.aliyun.oss.model.PartETag;
import com.aliyun.oss.model.PartListing;
import com.aliyun.oss.model.PutObjectResult;
import com.aliyun.oss.model.UploadPartCopyRequest;
import com.aliyun.oss.model.UploadPartRequest;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The 25 acceptance checks of reference/oss-api.md §3, run with aliyun-sdk-oss 3.18.5 over HTTP, once with V1
 * and once with V4 signatures (both verified server-side). Keys are prefixed with the signature version so
 * both runs share one emulator without interfering.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SdkAcceptanceTest {
    private static final String B = "accept";
    private OssEmulator emu;
    private final Map<SignVersion, OSS> clients = new java.util.EnumMap<>(SignVersion.class);

    @TempDir
    Path tmp;

    @BeforeAll
    void start() {
        emu = OssEmulator.builder().bucket(B).credentials(Sdk.AK, Sdk.SK).build().start();
    }

    @AfterAll
    void stop() {
        clients.values().forEach(OSS::shutdown);
        emu.close();
    }

    private OSS oss(SignVersion v) {
        return clients.computeIfAbsent(v, x -> Sdk.client(emu, x));
    }

    private static String p(SignVersion v) {
        return v.name().toLowerCase() + "/";
    }

    private PutObjectResult put(SignVersion v, String key, String body) {
        return oss(v).putObject(B, key, new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    }

    private String get(SignVersion v, String key) throws Exception {
        try (OSSObject o = oss(v).getObject(B, key)) {
            return new String(Sdk.readAll(o.getObjectContent()), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check01CreateBucket(SignVersion v) {
        String name = "created-" + v.name().toLowerCase();
        oss(v).createBucket(name);
        assertThat(oss(v).doesBucketExist(name)).isTrue();
        assertThat(oss(v).doesBucketExist("never-created-" + v.name().toLowerCase())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check02PutWithUserMetadata(SignVersion v) throws Exception {
        ObjectMetadata meta = new ObjectMetadata();
        meta.addUserMetadata("mode", "33188");
        meta.addUserMetadata("uid", "1000");
        byte[] data = "hello world".getBytes(StandardCharsets.UTF_8);
        PutObjectResult r = oss(v).putObject(B, p(v) + "meta.txt", new ByteArrayInputStream(data), meta);
        assertThat(r.getETag()).isEqualTo(Sdk.md5Hex(data));
        assertThat(r.getServerCRC()).isEqualTo(new CRC64(data, data.length).getValue());
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check03HeadReturnsMetadata(SignVersion v) throws Exception {
        ObjectMetadata meta = new ObjectMetadata();
        meta.addUserMetadata("mode", "420");
        meta.setContentType("text/plain");
        oss(v).putObject(B, p(v) + "head.txt", new ByteArrayInputStream("0123456789".getBytes()), meta);
        ObjectMetadata h = oss(v).getObjectMetadata(B, p(v) + "head.txt");
        assertThat(h.getContentLength()).isEqualTo(10);
        assertThat(h.getETag()).isEqualTo(Sdk.md5Hex("0123456789".getBytes()));
        assertThat(h.getLastModified()).isCloseTo(new java.util.Date(), 5000);
        assertThat(h.getObjectType()).isEqualTo("Normal");
        assertThat(h.getUserMetadata()).containsEntry("mode", "420");
        assertThat(h.getContentType()).isEqualTo("text/plain");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check04FullGetWithCrcCheck(SignVersion v) throws Exception {
        byte[] data = Sdk.bytes(300_000, 4);
        oss(v).putObject(B, p(v) + "crc.bin", new ByteArrayInputStream(data));
        File f = tmp.resolve(v + "-crc.bin").toFile();
        ObjectMetadata m = oss(v).getObject(new GetObjectRequest(B, p(v) + "crc.bin"), f); // SDK checks CRC here
        assertThat(Files.readAllBytes(f.toPath())).isEqualTo(data);
        assertThat(m.getServerCRC()).isEqualTo(new CRC64(data, data.length).getValue());
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check05Range206(SignVersion v) throws Exception {
        put(v, p(v) + "range.txt", "0123456789abcdef");
        GetObjectRequest req = new GetObjectRequest(B, p(v) + "range.txt");
        req.setRange(7, 9);
        try (OSSObject o = oss(v).getObject(req)) {
            assertThat(o.getResponse().getStatusCode()).isEqualTo(206);
            assertThat(o.getObjectMetadata().getRawMetadata().get("Content-Range")).isEqualTo("bytes 7-9/16");
            assertThat(new String(Sdk.readAll(o.getObjectContent()))).isEqualTo("789");
            // the whole-object CRC is returned even for a range
            assertThat(o.getServerCRC()).isEqualTo(new CRC64("0123456789abcdef".getBytes(), 16).getValue());
        }
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check06RangeIntoDirectBuffer(SignVersion v) throws Exception {
        byte[] data = Sdk.bytes(200_000, 6);
        oss(v).putObject(B, p(v) + "direct.bin", new ByteArrayInputStream(data));
        GetObjectRequest req = new GetObjectRequest(B, p(v) + "direct.bin");
        req.setRange(1000, 150_999);
        ByteBuffer buf = ByteBuffer.allocateDirect(150_000);
        try (OSSObject o = oss(v).getObject(req); InputStream in = o.getObjectContent()) {
            byte[] chunk = new byte[8192];
            int n;
            while ((n = in.read(chunk)) > 0) {
                buf.put(chunk, 0, n);
            }
        }
        buf.flip();
        byte[] got = new byte[buf.remaining()];
        buf.get(got);
        assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, 1000, 151_000));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check07DoesObjectExist(SignVersion v) {
        put(v, p(v) + "exists.txt", "x");
        assertThat(oss(v).doesObjectExist(B, p(v) + "exists.txt")).isTrue();
        assertThat(oss(v).doesObjectExist(B, p(v) + "missing.txt")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check08aNoSuchKeyOnGet(SignVersion v) {
        assertThatThrownBy(() -> oss(v).getObject(B, p(v) + "nope"))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchKey"));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check08bNoSuchKeyOnHead(SignVersion v) {
        assertThatThrownBy(() -> oss(v).getObjectMetadata(B, p(v) + "nope"))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchKey"));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check09SpecialKeys(SignVersion v) throws Exception {
        List<String> keys = List.of(p(v) + "sp/a b.txt", p(v) + "sp/a+b.txt", p(v) + "sp/100%.txt",
                p(v) + "sp/中文 ü.txt", p(v) + "sp/dir/", p(v) + "sp/*~'!()&=;,$@.txt");
        for (String k : keys) {
            put(v, k, "v:" + k);
        }
        for (String k : keys) {
            assertThat(get(v, k)).isEqualTo("v:" + k);
        }
        List<String> listed = oss(v).listObjectsV2(B, p(v) + "sp/").getObjectSummaries().stream()
                .map(OSSObjectSummary::getKey).toList();
        assertThat(listed).containsExactlyInAnyOrderElementsOf(keys);
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check10ListV2PrefixDelimiter(SignVersion v) {
        String d = p(v) + "dir1/";
        for (String k : List.of(d, d + "a.txt", d + "b.txt", d + "emptydir/", d + "sub/x.txt", d + "sub/y/z.txt",
                p(v) + "dir10/other.txt")) {
            put(v, k, "x");
        }
        ListObjectsV2Result r = oss(v).listObjectsV2(new ListObjectsV2Request(B).withPrefix(d).withDelimiter("/"));
        assertThat(r.getCommonPrefixes()).containsExactly(d + "emptydir/", d + "sub/");
        assertThat(r.getObjectSummaries()).extracting(OSSObjectSummary::getKey).containsExactly(d, d + "a.txt", d + "b.txt");
        assertThat(r.getKeyCount()).isEqualTo(5);
        assertThat(r.isTruncated()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check11EncodingTypeUrl(SignVersion v) {
        put(v, p(v) + "enc/a b+c.txt", "x");
        ListObjectsV2Result r = oss(v).listObjectsV2(
                new ListObjectsV2Request(B).withPrefix(p(v) + "enc/").withEncodingType("url"));
        // 3.18.5 does not decode v2 listings: the raw encoded key comes back
        assertThat(r.getObjectSummaries()).extracting(OSSObjectSummary::getKey)
                .containsExactly(p(v) + "enc/a%20b%2Bc.txt");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check12PagingMaxKeys2(SignVersion v) {
        String d = p(v) + "page/";
        List<String> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            all.add(d + "k" + i);
            put(v, d + "k" + i, "x");
        }
        List<String> seen = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            ListObjectsV2Result r = oss(v).listObjectsV2(new ListObjectsV2Request(B).withPrefix(d).withMaxKeys(2)
                    .withContinuationToken(token));
            pages++;
            assertThat(r.getKeyCount()).isEqualTo(2);
            r.getObjectSummaries().forEach(s -> seen.add(s.getKey()));
            token = r.isTruncated() ? r.getNextContinuationToken() : null;
        } while (token != null);
        assertThat(pages).isEqualTo(4);
        assertThat(seen).containsExactlyElementsOf(all);
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check13StartAfter(SignVersion v) {
        String d = p(v) + "sa/";
        for (String k : List.of("a", "b", "c", "d")) {
            put(v, d + k, "x");
        }
        ListObjectsV2Request req = new ListObjectsV2Request(B).withPrefix(d);
        req.setStartAfter(d + "b");
        assertThat(oss(v).listObjectsV2(req).getObjectSummaries()).extracting(OSSObjectSummary::getKey)
                .containsExactly(d + "c", d + "d");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check14ListV1MarkerNextMarker(SignVersion v) {
        String d = p(v) + "v1/";
        for (String k : List.of("a", "b", "c", "d", "e")) {
            put(v, d + k, "x");
        }
        ObjectListing first = oss(v).listObjects(new ListObjectsRequest(B).withPrefix(d).withMaxKeys(3));
        assertThat(first.isTruncated()).isTrue();
        assertThat(first.getNextMarker()).isEqualTo(d + "c");
        assertThat(first.getObjectSummaries().get(0).getOwner()).isNotNull();
        ObjectListing second = oss(v).listObjects(new ListObjectsRequest(B).withPrefix(d).withMaxKeys(3)
                .withMarker(first.getNextMarker()));
        assertThat(second.isTruncated()).isFalse();
        assertThat(second.getObjectSummaries()).extracting(OSSObjectSummary::getKey).containsExactly(d + "d", d + "e");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check15CopyReplaceOntoItself(SignVersion v) throws Exception {
        String k = p(v) + "chmod.txt";
        ObjectMetadata meta = new ObjectMetadata();
        meta.addUserMetadata("mode", "33188");
        meta.addUserMetadata("gone", "soon");
        oss(v).putObject(B, k, new ByteArrayInputStream("content".getBytes()), meta);
        CopyObjectRequest req = new CopyObjectRequest(B, k, B, k);
        ObjectMetadata nm = new ObjectMetadata();
        nm.addUserMetadata("mode", "33261");
        nm.setContentType("text/x-chmod");
        req.setNewObjectMetadata(nm);
        CopyObjectResult r = oss(v).copyObject(req);
        assertThat(r.getETag()).isEqualTo(Sdk.md5Hex("content".getBytes()));
        ObjectMetadata h = oss(v).getObjectMetadata(B, k);
        assertThat(h.getUserMetadata()).containsExactly(Map.entry("mode", "33261"));
        assertThat(h.getContentType()).isEqualTo("text/x-chmod");
        assertThat(get(v, k)).isEqualTo("content");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check16CopyToNewKey(SignVersion v) throws Exception {
        ObjectMetadata meta = new ObjectMetadata();
        meta.addUserMetadata("mode", "1");
        oss(v).putObject(B, p(v) + "dir a/src.txt", new ByteArrayInputStream("copy me".getBytes()), meta);
        CopyObjectResult r = oss(v).copyObject(B, p(v) + "dir a/src.txt", B, p(v) + "dst/copied.txt");
        assertThat(r.getETag()).isEqualTo(Sdk.md5Hex("copy me".getBytes()));
        assertThat(get(v, p(v) + "dst/copied.txt")).isEqualTo("copy me");
        assertThat(oss(v).getObjectMetadata(B, p(v) + "dst/copied.txt").getUserMetadata()).containsEntry("mode", "1");
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check17Multipart(SignVersion v) throws Exception {
        String k = p(v) + "mpu.bin";
        ObjectMetadata meta = new ObjectMetadata();
        meta.addUserMetadata("origin", "mpu");
        String id = oss(v).initiateMultipartUpload(new InitiateMultipartUploadRequest(B, k, meta)).getUploadId();
        byte[] p1 = Sdk.bytes(150 * 1024, 1);
        byte[] p2 = Sdk.bytes(1200, 2);
        List<PartETag> etags = new ArrayList<>();
        etags.add(uploadPart(v, k, id, 1, p1));
        etags.add(uploadPart(v, k, id, 2, p2));
        PartListing parts = oss(v).listParts(new ListPartsRequest(B, k, id));
        assertThat(parts.getParts()).extracting(pt -> pt.getSize()).containsExactly((long) p1.length, (long) p2.length);
        CompleteMultipartUploadResult done = oss(v).completeMultipartUpload(
                new CompleteMultipartUploadRequest(B, k, id, etags));
        java.io.ByteArrayOutputStream md5s = new java.io.ByteArrayOutputStream();
        md5s.write(Sdk.md5(p1));
        md5s.write(Sdk.md5(p2));
        assertThat(done.getETag()).isEqualTo(Sdk.md5Hex(md5s.toByteArray()) + "-2");
        ObjectMetadata h = oss(v).getObjectMetadata(B, k);
        assertThat(h.getObjectType()).isEqualTo("Multipart");
        assertThat(h.getContentLength()).isEqualTo(p1.length + p2.length);
        assertThat(h.getUserMetadata()).containsEntry("origin", "mpu");
        byte[] all = new byte[p1.length + p2.length];
        System.arraycopy(p1, 0, all, 0, p1.length);
        System.arraycopy(p2, 0, all, p1.length, p2.length);
        try (OSSObject o = oss(v).getObject(B, k)) {
            assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo(all);
        }
        assertThat(done.getServerCRC()).isEqualTo(new CRC64(all, all.length).getValue());
    }

    private PartETag uploadPart(SignVersion v, String key, String id, int n, byte[] data) {
        UploadPartRequest up = new UploadPartRequest(B, key, id, n, new ByteArrayInputStream(data), data.length);
        return oss(v).uploadPart(up).getPartETag();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check18EntityTooSmall(SignVersion v) {
        String k = p(v) + "small.bin";
        String id = oss(v).initiateMultipartUpload(new InitiateMultipartUploadRequest(B, k)).getUploadId();
        List<PartETag> etags = List.of(uploadPart(v, k, id, 1, Sdk.bytes(1024, 1)), uploadPart(v, k, id, 2, Sdk.bytes(10, 2)));
        assertThatThrownBy(() -> oss(v).completeMultipartUpload(new CompleteMultipartUploadRequest(B, k, id, new ArrayList<>(etags))))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("EntityTooSmall"));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check19UploadPartCopyAbortNoSuchUpload(SignVersion v) {
        put(v, p(v) + "upc-src.txt", "0123456789");
        String k = p(v) + "upc.bin";
        String id = oss(v).initiateMultipartUpload(new InitiateMultipartUploadRequest(B, k)).getUploadId();
        UploadPartCopyRequest req = new UploadPartCopyRequest(B, p(v) + "upc-src.txt", B, k, id, 1, 2L, 5L);
        String etag = oss(v).uploadPartCopy(req).getETag();
        assertThat(etag).isEqualTo(Sdk.md5HexUnchecked("23456".getBytes()));
        assertThat(oss(v).listParts(new ListPartsRequest(B, k, id)).getParts()).hasSize(1);
        oss(v).abortMultipartUpload(new com.aliyun.oss.model.AbortMultipartUploadRequest(B, k, id));
        assertThatThrownBy(() -> oss(v).listParts(new ListPartsRequest(B, k, id)))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchUpload"));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check20Append(SignVersion v) throws Exception {
        String k = p(v) + "append.log";
        AppendObjectRequest a1 = new AppendObjectRequest(B, k, new ByteArrayInputStream("abc".getBytes()));
        a1.setPosition(0L);
        a1.setInitCRC(0L);
        AppendObjectResult r1 = oss(v).appendObject(a1);
        assertThat(r1.getNextPosition()).isEqualTo(3);
        AppendObjectRequest a2 = new AppendObjectRequest(B, k, new ByteArrayInputStream("defg".getBytes()));
        a2.setPosition(3L);
        a2.setInitCRC(r1.getClientCRC()); // the SDK checks the running CRC
        AppendObjectResult r2 = oss(v).appendObject(a2);
        assertThat(r2.getNextPosition()).isEqualTo(7);
        ObjectMetadata h = oss(v).getObjectMetadata(B, k);
        assertThat(h.getObjectType()).isEqualTo("Appendable");
        assertThat(h.getRawMetadata().get("x-oss-next-append-position")).isEqualTo("7");
        assertThat(get(v, k)).isEqualTo("abcdefg");
        AppendObjectRequest bad = new AppendObjectRequest(B, k, new ByteArrayInputStream("x".getBytes()));
        bad.setPosition(3L);
        assertThatThrownBy(() -> oss(v).appendObject(bad)).isInstanceOfSatisfying(OSSException.class,
                e -> assertThat(e.getErrorCode()).isEqualTo("PositionNotEqualToLength"));
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check21DeleteObjects(SignVersion v) {
        List<String> keys = List.of(p(v) + "del/a", p(v) + "del/b c", p(v) + "del/missing");
        put(v, keys.get(0), "x");
        put(v, keys.get(1), "x");
        DeleteObjectsResult r = oss(v).deleteObjects(new DeleteObjectsRequest(B).withKeys(keys).withQuiet(false));
        assertThat(r.getDeletedObjects()).containsExactlyInAnyOrderElementsOf(keys);
        assertThat(oss(v).listObjectsV2(B, p(v) + "del/").getObjectSummaries()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check22IdempotentDelete(SignVersion v) {
        put(v, p(v) + "once.txt", "x");
        oss(v).deleteObject(B, p(v) + "once.txt");
        oss(v).deleteObject(B, p(v) + "once.txt");
        assertThat(oss(v).doesObjectExist(B, p(v) + "once.txt")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check23ContentMd5(SignVersion v) throws Exception {
        byte[] data = "md5 checked".getBytes();
        ObjectMetadata good = new ObjectMetadata();
        good.setContentMD5(Base64.getEncoder().encodeToString(Sdk.md5(data)));
        oss(v).putObject(B, p(v) + "md5.txt", new ByteArrayInputStream(data), good);
        ObjectMetadata bad = new ObjectMetadata();
        bad.setContentMD5(Base64.getEncoder().encodeToString(Sdk.md5("other".getBytes())));
        assertThatThrownBy(() -> oss(v).putObject(B, p(v) + "md5-bad.txt", new ByteArrayInputStream(data), bad))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("InvalidDigest"));
        assertThat(oss(v).doesObjectExist(B, p(v) + "md5-bad.txt")).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void check24NoSuchBucket(SignVersion v) {
        assertThatThrownBy(() -> oss(v).getObject("no-such-bucket", "k"))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchBucket"));
        assertThatThrownBy(() -> oss(v).getObjectMetadata("no-such-bucket", "k"))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchBucket"));
        assertThatThrownBy(() -> oss(v).putObject("no-such-bucket", "k", new ByteArrayInputStream(new byte[10])))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("NoSuchBucket"));
    }
}
