package io.ossgw.app.metrics;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.app.serve.Gateway;
import io.ossgw.testsupport.Slowdown;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Scrapes /q/metrics before and after a workload through a real NFS client (libnfs-utils: nfs-cp, nfs-cat) and checks
 * that the counters moved by the amounts the workload implies: NFS bytes, NFS procedures, and every OSS request the
 * emulator received counted once under its operation, a retry of an injected 503 included.
 */
@QuarkusTest
@QuarkusTestResource(value = NfsEmulatorResource.class, restrictToAnnotatedClass = true)
class MetricsWorkloadTest {
  static final int SIZE = 300_000;
  static final String[] OPERATIONS = {"HeadObject", "GetObject", "ListObjectsV2", "PutObject", "CopyObject",
      "DeleteObject", "InitiateMultipartUpload", "UploadPart", "CompleteMultipartUpload"};

  @Inject Gateway gateway;

  static Path tmp;

  @BeforeAll
  static void tools() throws IOException {
    for (String tool : List.of("nfs-cp", "nfs-cat")) {
      Assumptions.assumeTrue(onPath(tool), tool + " (libnfs-utils) is not installed");
    }
    tmp = Files.createTempDirectory("ossgw-metrics-client-");
  }

  @AfterAll
  static void cleanup() throws IOException {
    if (tmp != null) {
      try (var s = Files.walk(tmp)) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void countersMoveByWhatTheWorkloadDid() throws Exception {
    gateway.start();
    try {
      int port = gateway.nfsPort().orElseThrow();
      Map<String, Double> before = scrape();
      Map<String, Long> emuBefore = emulatorCounts();
      assertThat(before).containsKey("ossgw_nfs_operations_total{procedure=\"readdirplus\"}");
      assertThat(before).containsKey("ossgw_spool_bytes");

      byte[] data = new byte[SIZE];
      new Random(5).nextBytes(data);
      Path src = tmp.resolve("w.bin");
      Files.write(src, data);
      String url = "nfs://127.0.0.1/" + NfsEmulatorResource.BUCKET + "/w.bin?nfsport=" + port + "&mountport=" + port
          + "&version=3";
      run("nfs-cp", src.toString(), url);
      assertThat(runForBytes("nfs-cat", url)).isEqualTo(data);
      // An object written by another OSS client must be fetched: its first GetObject fails once with 503 (one retry).
      putExternally("ext.bin", data);
      NfsEmulatorResource.emulator.faults().failNext(1, 503, "SlowDown", Set.of("GetObject"));
      assertThat(runForBytes("nfs-cat", url.replace("/w.bin", "/ext.bin"))).isEqualTo(data);

      Map<String, Double> after = scrape();
      Map<String, Long> emuAfter = emulatorCounts();

      assertThat(delta(before, after, "ossgw_frontend_written_bytes_total", "frontend=\"nfs\"")).isEqualTo(SIZE);
      assertThat(delta(before, after, "ossgw_frontend_read_bytes_total", "frontend=\"nfs\"")).isEqualTo(2.0 * SIZE);
      assertThat(delta(before, after, "ossgw_frontend_read_bytes_total", "frontend=\"fuse\"")).isZero();
      assertThat(delta(before, after, "ossgw_nfs_operations_total", "procedure=\"write\"")).isPositive();
      assertThat(delta(before, after, "ossgw_nfs_operations_total", "procedure=\"read\"")).isPositive();
      assertThat(delta(before, after, "ossgw_nfs_operations_total", "procedure=\"mknod\"")).isZero();

      for (String op : OPERATIONS) {
        assertThat(delta(before, after, "ossgw_oss_requests_seconds_count", "operation=\"" + op + "\""))
            .as("%s attempts in /q/metrics vs requests the emulator received", op)
            .isEqualTo((double) (emuAfter.get(op) - emuBefore.get(op) - ("PutObject".equals(op) ? 1 : 0)));
      } // (minus the test's own PutObject of ext.bin)
      assertThat(delta(before, after, "ossgw_oss_requests_seconds_count", "operation=\"PutObject\"",
          "outcome=\"ok\"")).isPositive();
      assertThat(delta(before, after, "ossgw_oss_requests_seconds_count", "operation=\"GetObject\"",
          "outcome=\"transient\"")).isEqualTo(1);
      assertThat(delta(before, after, "ossgw_oss_retries_total", "operation=\"GetObject\"")).isEqualTo(1);
      // the latency histogram: every attempt is in the +Inf bucket
      assertThat(delta(before, after, "ossgw_oss_requests_seconds_bucket", "operation=\"GetObject\"",
          "le=\"+Inf\"")).isEqualTo((double) (emuAfter.get("GetObject") - emuBefore.get("GetObject")));
      assertThat(delta(before, after, "ossgw_cache_hits_total", "cache=\"stat\"")).isPositive();
      assertThat(sum(after, "ossgw_memory_budget_bytes", "bucket=\"" + NfsEmulatorResource.BUCKET + "\""))
          .isPositive();
      // NFS has no close: the server keeps w.bin open (ossgw.nfs.open-idle-timeout), and its staging with it; a file
      // below multipart_size is staged in memory (128 KiB buffers charged to the memory budget), not in the spool
      assertThat(sum(after, "ossgw_spool_bytes")).isZero();
      assertThat(sum(after, "ossgw_memory_used_bytes", "bucket=\"" + NfsEmulatorResource.BUCKET + "\""))
          .isGreaterThanOrEqualTo(SIZE);
    } finally {
      gateway.stop();
    }
  }

  /** PutObject through the aliyun SDK, as another OSS client would (not through the gateway). */
  static void putExternally(String key, byte[] data) {
    com.aliyun.oss.OSS oss = new com.aliyun.oss.OSSClientBuilder().build(NfsEmulatorResource.emulator.endpoint(),
        NfsEmulatorResource.AK, NfsEmulatorResource.SK);
    try {
      oss.putObject(NfsEmulatorResource.BUCKET, key, new java.io.ByteArrayInputStream(data));
    } finally {
      oss.shutdown();
    }
  }

  /** /q/metrics as series -> value ("name{labels}" as printed). */
  static Map<String, Double> scrape() {
    String text = given().get("/q/metrics").then().statusCode(200).extract().asString();
    Map<String, Double> m = new TreeMap<>();
    Pattern line = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{.*\\})?) (\\S+)$");
    for (String l : text.split("\n")) {
      Matcher x = line.matcher(l);
      if (!l.startsWith("#") && x.matches()) {
        m.put(x.group(1), Double.parseDouble(x.group(2)));
      }
    }
    return m;
  }

  /** Sum of the series of {@code name} whose labels contain every {@code label} ({@code k="v"}). */
  static double sum(Map<String, Double> m, String name, String... labels) {
    double total = 0;
    for (var e : m.entrySet()) {
      String k = e.getKey();
      if (!(k.equals(name) || k.startsWith(name + "{"))) {
        continue;
      }
      boolean all = true;
      for (String l : labels) {
        all &= k.contains(l);
      }
      if (all) {
        total += e.getValue();
      }
    }
    return total;
  }

  static double delta(Map<String, Double> before, Map<String, Double> after, String name, String... labels) {
    return sum(after, name, labels) - sum(before, name, labels);
  }

  static Map<String, Long> emulatorCounts() {
    Map<String, Long> m = new TreeMap<>();
    for (String op : OPERATIONS) {
      m.put(op, NfsEmulatorResource.emulator.counters().get(op));
    }
    return m;
  }

  static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  static void run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.log").toFile())
        .start();
    assertThat(p.waitFor(Slowdown.scaledMillis(60_000), TimeUnit.MILLISECONDS)).as("%s finished", List.of(cmd))
        .isTrue();
    assertThat(p.exitValue()).as("%s: %s", List.of(cmd), Files.readString(tmp.resolve("out.log"))).isZero();
  }

  static byte[] runForBytes(String... cmd) throws Exception {
    Path out = tmp.resolve("cat.out");
    Process p = new ProcessBuilder(new ArrayList<>(List.of(cmd))).redirectError(tmp.resolve("err.log").toFile())
        .redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(Slowdown.scaledMillis(60_000), TimeUnit.MILLISECONDS)).as("%s finished", List.of(cmd))
        .isTrue();
    assertThat(p.exitValue()).as("%s: %s", List.of(cmd), Files.readString(tmp.resolve("err.log"))).isZero();
    return Files.readAllBytes(out);
  }
}
