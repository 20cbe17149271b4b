package io.ossgw.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.ClientException;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSException;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.OSSObject;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Request counters (Java and HTTP) and every fault kind, seen through the SDK. */
class CountersAndFaultsTest {
    private OssEmulator emu;
    private OSS oss;

    @BeforeEach
    void start() {
        emu = OssEmulator.builder().bucket("cfb").credentials(Sdk.AK, Sdk.SK).build().start();
        oss = Sdk.client(emu, SignVersion.V1);
    }

    @AfterEach
    void stop() {
        oss.shutdown();
        emu.close();
    }

    @Test
    void countersMoveByTheRightAmounts() throws Exception {
        RequestCounters c = emu.counters();
        oss.putObject("cfb", "a", new ByteArrayInputStream(new byte[1000]));
        oss.putObject("cfb", "b", new ByteArrayInputStream(new byte[24]));
        oss.getObjectMetadata("cfb", "a");
        oss.doesObjectExist("cfb", "a");
        try (OSSObject o = oss.getObject("cfb", "a")) {
            Sdk.readAll(o.getObjectContent());
        }
        oss.listObjectsV2("cfb");
        oss.listObjects("cfb");
        oss.copyObject("cfb", "a", "cfb", "c");
        oss.deleteObject("cfb", "c");
        assertThat(c.get("PutObject")).isEqualTo(2);
        assertThat(c.get("HeadObject")).isEqualTo(1);
        assertThat(c.get("GetObjectMeta")).isEqualTo(1);
        assertThat(c.get("GetObject")).isEqualTo(1);
        assertThat(c.get("ListObjectsV2")).isEqualTo(1);
        assertThat(c.get("ListObjects")).isEqualTo(1);
        assertThat(c.get("CopyObject")).isEqualTo(1);
        assertThat(c.get("DeleteObject")).isEqualTo(1);
        assertThat(c.total()).isEqualTo(9);
        assertThat(c.bytesReceived()).isEqualTo(1024);
        assertThat(c.bytesSent()).isGreaterThanOrEqualTo(1000);
        try (RawHttp http = new RawHttp(emu.port())) {
            String json = http.send("GET /-/counters HTTP/1.1\r\nHost: x", null, false).text();
            assertThat(json).contains("\"PutObject\":2").contains("\"GetObjectMeta\":1").contains("\"BytesReceived\":1024");
            assertThat(http.send("POST /-/counters/reset HTTP/1.1\r\nHost: x\r\nContent-Length: 0", null, false).status())
                    .isEqualTo(200);
        }
        assertThat(c.total()).isZero();
        assertThat(c.snapshot()).containsEntry("BytesReceived", 0L);
    }

    @Test
    void statusRateFailsOnlyTheChosenOperations() throws Exception {
        oss.putObject("cfb", "k", new ByteArrayInputStream("v".getBytes()));
        emu.faults().failWith(503, "SlowDown", 1.0, Set.of("GetObject"));
        assertThatThrownBy(() -> oss.getObject("cfb", "k")).isInstanceOfSatisfying(OSSException.class, e -> {
            assertThat(e.getErrorCode()).isEqualTo("SlowDown");
        });
        assertThat(oss.getObjectMetadata("cfb", "k").getContentLength()).isEqualTo(1); // HeadObject unaffected
        emu.faults().clear();
        emu.faults().failWith(500, "InternalError", 0.5, null);
        int failed = 0;
        for (int i = 0; i < 200; i++) {
            try {
                oss.getObjectMetadata("cfb", "k");
            } catch (OSSException e) {
                assertThat(e.getErrorCode()).isEqualTo("InternalError");
                failed++;
            }
        }
        assertThat(failed).isBetween(50, 150);
    }

    @Test
    void failNextIsRetriedAwayBySdk() {
        OSS retrying = Sdk.client(emu, SignVersion.V4, Sdk.AK, Sdk.SK, 3);
        try {
            emu.faults().failNext(2, 503, "SlowDown", Set.of("PutObject"));
            retrying.putObject("cfb", "retried", new ByteArrayInputStream("ok".getBytes()));
            assertThat(emu.counters().get("PutObject")).isEqualTo(3); // two injected failures, then success
            assertThat(retrying.doesObjectExist("cfb", "retried")).isTrue();
            retrying.putObject("cfb", "again", new ByteArrayInputStream("ok".getBytes()));
            assertThat(emu.counters().get("PutObject")).isEqualTo(4); // the rule is used up
        } finally {
            retrying.shutdown();
        }
    }

    @Test
    void latencyIsAdded() {
        oss.putObject("cfb", "k", new ByteArrayInputStream("v".getBytes()));
        // long enough that a request without it is faster even on a busy machine
        long latency = Slowdown.scaledMillis(500);
        emu.faults().latency(Duration.ofMillis(latency));
        long t0 = System.nanoTime();
        oss.getObjectMetadata("cfb", "k");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).isGreaterThanOrEqualTo(latency - 10);
        emu.faults().clear();
        t0 = System.nanoTime();
        oss.getObjectMetadata("cfb", "k");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(latency - 10);
    }

    @Test
    void connectionResetIsAnExceptionInTheSdk() {
        oss.putObject("cfb", "k", new ByteArrayInputStream("v".getBytes()));
        emu.faults().resetConnections(1.0);
        assertThatThrownBy(() -> oss.getObjectMetadata("cfb", "k")).isInstanceOf(ClientException.class);
        emu.faults().clear();
        assertThat(oss.getObjectMetadata("cfb", "k").getContentLength()).isEqualTo(1);
    }

    @Test
    void faultsOverHttp() throws Exception {
        oss.putObject("cfb", "k", new ByteArrayInputStream("v".getBytes()));
        try (RawHttp http = new RawHttp(emu.port())) {
            assertThat(http.send("POST /-/faults?status=503&next=1&ops=HeadObject HTTP/1.1\r\nHost: x\r\nContent-Length: 0",
                    null, false).text()).contains("SlowDown");
        }
        assertThatThrownBy(() -> oss.getObjectMetadata("cfb", "k"))
                .isInstanceOfSatisfying(OSSException.class, e -> assertThat(e.getErrorCode()).isEqualTo("SlowDown"));
        assertThat(oss.getObjectMetadata("cfb", "k").getContentLength()).isEqualTo(1);
        try (RawHttp http = new RawHttp(emu.port())) {
            http.send("POST /-/faults?status=500&rate=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0", null, false);
            RawHttp.Response r = http.send("GET /cfb/k HTTP/1.1\r\nHost: x", null, false);
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.text()).contains("<Code>InternalError</Code>");
            assertThat(http.send("DELETE /-/faults HTTP/1.1\r\nHost: x", null, false).status()).isEqualTo(200);
            // what a reliability run reports: faults injected since start, kept across DELETE
            assertThat(http.send("GET /-/faults HTTP/1.1\r\nHost: x", null, false).text())
                    .contains("\"injectedErrors\":2").contains("\"injectedResets\":0");
            assertThat(http.send("GET /-/health HTTP/1.1\r\nHost: x", null, false).text()).contains("ok");
        }
        assertThat(oss.getObjectMetadata("cfb", "k").getContentLength()).isEqualTo(1);
    }
}
