package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.GetObjectRequest;
import com.aliyun.oss.model.OSSObject;
import com.aliyun.oss.model.ObjectMetadata;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Authentication failures, conditional and standard-range reads, chunked uploads, keep-alive after errors,
 * key limits and virtual-hosted addressing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WireBehaviourTest {
    private static final String B = "wire";
    private OssEmulator emu;
    private OssEmulator open; // auth off, virtual hosts on

    @BeforeAll
    void start() {
        emu = OssEmulator.builder().bucket(B).credentials(Sdk.AK, Sdk.SK).build().start();
        open = OssEmulator.builder().bucket(B).authEnabled(false).virtualHostBase("oss-local.test").build().start();
    }

    @AfterAll
    void stop() {
        emu.close();
        open.close();
    }

    private static String code(Throwable t) {
        return ((OSSException) t).getErrorCode();
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void wrongSecretIsSignatureDoesNotMatchEvenOnHead(SignVersion v) {
        OSS good = Sdk.client(emu, v);
        OSS bad = Sdk.client(emu, v, Sdk.AK, "not-the-secret", 0);
        try {
            good.putObject(B, "auth/x.txt", new ByteArrayInputStream("x".getBytes()));
            assertThatThrownBy(() -> bad.putObject(B, "auth/y.txt", new ByteArrayInputStream("y".getBytes())))
                    .satisfies(t -> assertThat(code(t)).isEqualTo("SignatureDoesNotMatch"));
            assertThatThrownBy(() -> bad.getObject(B, "auth/x.txt"))
                    .satisfies(t -> assertThat(code(t)).isEqualTo("SignatureDoesNotMatch"));
            assertThatThrownBy(() -> bad.getObjectMetadata(B, "auth/x.txt"))
                    .satisfies(t -> assertThat(code(t)).isEqualTo("SignatureDoesNotMatch"));
            assertThat(good.doesObjectExist(B, "auth/y.txt")).isFalse();
        } finally {
            good.shutdown();
            bad.shutdown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = SignVersion.class, names = {"V1", "V4"})
    void unknownAccessKeyIsInvalidAccessKeyId(SignVersion v) {
        OSS bad = Sdk.client(emu, v, "who", Sdk.SK, 0);
        try {
            assertThatThrownBy(() -> bad.getObject(B, "k")).satisfies(t -> assertThat(code(t)).isEqualTo("InvalidAccessKeyId"));
        } finally {
            bad.shutdown();
        }
    }

    @Test
    void signatureErrorCarriesStringToSign() throws Exception {
        try (RawHttp http = new RawHttp(emu.port())) {
            RawHttp.Response r = http.send("GET /wire/k HTTP/1.1\r\nHost: x\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT\r\n"
                    + "Authorization: OSS " + Sdk.AK + ":AAAA", null, false);
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.text()).contains("<Code>SignatureDoesNotMatch</Code>")
                    .contains("<StringToSign>GET\n\n\nMon, 01 Jan 2024 00:00:00 GMT\n/wire/k</StringToSign>")
                    .contains("<RequestId>" + r.headers().get("x-oss-request-id") + "</RequestId>");
            RawHttp.Response anon = http.send("GET /wire/k HTTP/1.1\r\nHost: x", null, false);
            assertThat(anon.status()).isEqualTo(403);
            assertThat(anon.text()).contains("<Code>AccessDenied</Code>");
        }
    }

    @Test
    void headTellsNoSuchBucketFromNoSuchKey() {
        OSS oss = Sdk.client(emu, SignVersion.V4);
        try {
            assertThatThrownBy(() -> oss.getObjectMetadata(B, "absent")).satisfies(t -> assertThat(code(t)).isEqualTo("NoSuchKey"));
            assertThatThrownBy(() -> oss.getObjectMetadata("absent-bucket", "absent"))
                    .satisfies(t -> assertThat(code(t)).isEqualTo("NoSuchBucket"));
            assertThat(oss.doesObjectExist("absent-bucket", "absent")).isFalse();
        } finally {
            oss.shutdown();
        }
    }

    @Test
    void standardRangeBehaviourClampsAndRejects() throws Exception {
        OSS oss = Sdk.client(emu, SignVersion.V1);
        try {
            oss.putObject(B, "range/ten", new ByteArrayInputStream("0123456789".getBytes()));
            GetObjectRequest lax = new GetObjectRequest(B, "range/ten");
            lax.setRange(5, 100);
            try (OSSObject o = oss.getObject(lax)) {
                assertThat(o.getResponse().getStatusCode()).isEqualTo(200); // default: ignored, whole object
                assertThat(new String(Sdk.readAll(o.getObjectContent()))).isEqualTo("0123456789");
            }
            GetObjectRequest clamp = new GetObjectRequest(B, "range/ten");
            clamp.setRange(5, 100);
            clamp.addHeader("x-oss-range-behavior", "standard");
            try (OSSObject o = oss.getObject(clamp)) {
                assertThat(o.getResponse().getStatusCode()).isEqualTo(206);
                assertThat(o.getObjectMetadata().getRawMetadata().get("Content-Range")).isEqualTo("bytes 5-9/10");
                assertThat(new String(Sdk.readAll(o.getObjectContent()))).isEqualTo("56789");
            }
            GetObjectRequest past = new GetObjectRequest(B, "range/ten");
            past.setRange(10, 20);
            past.addHeader("x-oss-range-behavior", "standard");
            assertThatThrownBy(() -> oss.getObject(past)).satisfies(t -> {
                assertThat(code(t)).isEqualTo("InvalidRange");
            });
            GetObjectRequest pastLax = new GetObjectRequest(B, "range/ten");
            pastLax.setRange(10, 20);
            try (OSSObject o = oss.getObject(pastLax)) {
                assertThat(o.getResponse().getStatusCode()).isEqualTo(200);
            }
        } finally {
            oss.shutdown();
        }
    }

    @Test
    void conditionalReads() throws Exception {
        OSS oss = Sdk.client(emu, SignVersion.V4);
        try {
            String etag = oss.putObject(B, "cond/x", new ByteArrayInputStream("abc".getBytes())).getETag();
            GetObjectRequest ok = new GetObjectRequest(B, "cond/x");
            ok.setMatchingETagConstraints(List.of(etag));
            try (OSSObject o = oss.getObject(ok)) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo("abc".getBytes());
            }
            GetObjectRequest bad = new GetObjectRequest(B, "cond/x");
            bad.setMatchingETagConstraints(List.of("0000"));
            assertThatThrownBy(() -> oss.getObject(bad)).satisfies(t -> assertThat(code(t)).isEqualTo("PreconditionFailed"));
        } finally {
            oss.shutdown();
        }
        try (RawHttp http = new RawHttp(open.port())) {
            http.send("PUT /wire/cond/x HTTP/1.1\r\nHost: x\r\nContent-Length: 3", "abc".getBytes(), false);
            String etag = http.send("HEAD /wire/cond/x HTTP/1.1\r\nHost: x", null, true).headers().get("etag");
            assertThat(http.send("GET /wire/cond/x HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag, null, false).status())
                    .isEqualTo(304);
            RawHttp.Response h = http.send("HEAD /wire/cond/x HTTP/1.1\r\nHost: x\r\nIf-Match: \"nope\"", null, true);
            assertThat(h.status()).isEqualTo(412);
            assertThat(new String(Base64.getDecoder().decode(h.headers().get("x-oss-err")))).contains("PreconditionFailed");
            assertThat(http.send("GET /wire/cond/x HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: Fri, 01 Jan 2100 00:00:00 GMT",
                    null, false).status()).isEqualTo(304);
            assertThat(http.send("GET /wire/cond/x HTTP/1.1\r\nHost: x\r\nIf-Unmodified-Since: Thu, 01 Jan 2004 00:00:00 GMT",
                    null, false).status()).isEqualTo(412);
        }
    }

    @Test
    void chunkedPutFromStreamWithoutLength() throws Exception {
        OSS oss = Sdk.client(emu, SignVersion.V1);
        try {
            byte[] data = Sdk.bytes(700_000, 9);
            InputStream noLength = new java.io.FilterInputStream(new ByteArrayInputStream(data)) {
                @Override
                public boolean markSupported() {
                    return false;
                }
            };
            String etag = oss.putObject(B, "chunked/blob", noLength, new ObjectMetadata()).getETag();
            assertThat(etag).isEqualTo(Sdk.md5Hex(data));
            assertThat(oss.getObjectMetadata(B, "chunked/blob").getContentLength()).isEqualTo(data.length);
        } finally {
            oss.shutdown();
        }
    }

    @Test
    void keepAliveSurvivesAnEarlyErrorWithABody() throws Exception {
        try (RawHttp http = new RawHttp(emu.port())) {
            byte[] body = new byte[300_000];
            // Unsigned PUT with a body: rejected before the body is read; the body must be drained.
            RawHttp.Response r = http.send("PUT /wire/ka HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length, body, false);
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.headers().get("connection")).isEqualTo("keep-alive");
            RawHttp.Response again = http.send("GET /-/health HTTP/1.1\r\nHost: x", null, false);
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.text()).contains("ok");
        }
        // and through the SDK: an error on a pooled connection, then success on the same pool
        OSS oss = Sdk.client(emu, SignVersion.V1);
        try {
            ObjectMetadata bad = new ObjectMetadata();
            bad.setContentMD5(Base64.getEncoder().encodeToString(new byte[16]));
            assertThatThrownBy(() -> oss.putObject("absent-bucket", "k", new ByteArrayInputStream(new byte[200_000]), bad))
                    .satisfies(t -> assertThat(code(t)).isEqualTo("NoSuchBucket"));
            oss.putObject(B, "ka/after", new ByteArrayInputStream("fine".getBytes()));
            try (OSSObject o = oss.getObject(B, "ka/after")) {
                assertThat(Sdk.readAll(o.getObjectContent())).isEqualTo("fine".getBytes());
            }
        } finally {
            oss.shutdown();
        }
    }

    @Test
    void keyLengthLimit() throws Exception {
        try (RawHttp http = new RawHttp(open.port())) {
            String ok = "k".repeat(1023);
            assertThat(http.send("PUT /wire/" + ok + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1", new byte[] {1}, false).status())
                    .isEqualTo(200);
            RawHttp.Response r = http.send("PUT /wire/" + "k".repeat(1024) + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1",
                    new byte[] {1}, false);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.text()).contains("<Code>InvalidObjectName</Code>");
            // multi-byte characters count in UTF-8 bytes: 342 x 3 bytes = 1026
            RawHttp.Response utf = http.send("GET /wire/" + "%E4%B8%AD".repeat(342) + " HTTP/1.1\r\nHost: x", null, false);
            assertThat(utf.status()).isEqualTo(400);
            RawHttp.Response bucket = http.send("GET /Bad_Bucket/k HTTP/1.1\r\nHost: x", null, false);
            assertThat(bucket.text()).contains("<Code>InvalidBucketName</Code>");
        }
    }

    @Test
    void virtualHostedStyle() throws Exception {
        try (RawHttp http = new RawHttp(open.port())) {
            String host = "Host: wire.oss-local.test:" + open.port();
            assertThat(http.send("PUT /vh/a%20b.txt HTTP/1.1\r\n" + host + "\r\nContent-Length: 5",
                    "hello".getBytes(), false).status()).isEqualTo(200);
            RawHttp.Response pathStyle = http.send("GET /wire/vh/a%20b.txt HTTP/1.1\r\nHost: 127.0.0.1", null, false);
            assertThat(pathStyle.text()).isEqualTo("hello");
            RawHttp.Response list = http.send("GET /?list-type=2&prefix=vh/ HTTP/1.1\r\n" + host, null, false);
            assertThat(list.text()).contains("<Name>wire</Name>").contains("<Key>vh/a b.txt</Key>").contains("<KeyCount>1</KeyCount>");
            RawHttp.Response missing = http.send("GET /k HTTP/1.1\r\nHost: nobucket.oss-local.test", null, false);
            assertThat(missing.text()).contains("<Code>NoSuchBucket</Code>");
        }
    }

    @Test
    void everyReplyHasARequestIdAndErrorsHaveEc() throws Exception {
        try (RawHttp http = new RawHttp(open.port())) {
            RawHttp.Response r = http.send("GET /wire/none HTTP/1.1\r\nHost: x", null, false);
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.headers()).containsKey("x-oss-request-id");
            assertThat(r.text()).contains("<Code>NoSuchKey</Code>").contains("<Key>none</Key>").contains("<EC>0026-00000001</EC>");
            RawHttp.Response acl = http.send("GET /wire/?acl HTTP/1.1\r\nHost: x", null, false);
            assertThat(acl.text()).contains("<Grant>private</Grant>");
            RawHttp.Response chunked = http.send("PUT /wire/ch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked",
                    "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), false);
            assertThat(chunked.status()).isEqualTo(200);
            assertThat(http.send("GET /wire/ch HTTP/1.1\r\nHost: x", null, false).text()).isEqualTo("abcde");
        }
    }
}
