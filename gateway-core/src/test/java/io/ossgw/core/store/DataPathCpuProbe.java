package io.ossgw.core.store;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.store.lean.LeanDataStore;
import io.ossgw.core.store.lean.OssV4Signer;
import io.ossgw.emulator.OssEmulator;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * CPU per GiB of the data operations (issue 14, docs/benchmarks.md "Lean data path"), not a test: runs only with
 * {@code -Dossgw.probe=true}. Against an emulator in another process ({@code -Dossgw.probe.signed=URL}, started as
 * {@code ./ossgw emulator --data DIR --bucket probe --access-key ak --secret-key sk}; without it one runs in-process and
 * its CPU is counted too), each client uploads a 1 GiB spool file as 8 MiB UploadParts (as the write path does) and
 * reads a 1 GiB object back as 4 MiB ranged GETs into a direct buffer (as read-ahead does), one thread, {@code
 * ossgw.probe.rounds} (3) rounds each; printed per round: this process's CPU seconds (getrusage: JIT and GC threads
 * included), the calling thread's, and wall time. Clients: ossgw's SDK store ({@link AliyunObjectStore}), the lean data
 * path copying through a direct buffer and with sendfile ({@link LeanDataStore}), and {@link HttpClient} signed with
 * {@link OssV4Signer} (no CRC: a floor for that client, not an equal).
 */
@EnabledIfSystemProperty(named = "ossgw.probe", matches = "true")
class DataPathCpuProbe {
  private static final String BUCKET = "probe";
  private static final long GIB = 1L << 30;
  /** Bytes each transfer moves ({@code -Dossgw.probe.mib=}, default 1024); figures are per GiB whatever it is. */
  private static final long SIZE = Long.getLong("ossgw.probe.mib", 1024) << 20;
  private static final int PART = 8 << 20;
  private static final int RANGE = 4 << 20;
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  interface Transfer {
    void run() throws Exception;
  }

  /** The probe without JUnit (JVM options of one's choosing: {@code java -cp ... DataPathCpuProbe}). */
  public static void main(String[] args) throws Exception {
    new DataPathCpuProbe().cpuPerGib();
  }

  @Test
  void cpuPerGib() throws Exception {
    String url = System.getProperty("ossgw.probe.signed");
    OssEmulator emu = url != null ? null : OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET)
        .credentials("ak", "sk").authEnabled(true).build().start();
    String endpoint = url != null ? url : emu.endpoint();
    EngineConfig config = EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(List.of("url=" + endpoint)),
        new Credentials("ak", "sk"), 1000, 1000, null);
    Path spool = Files.createTempFile("probe-spool", ".bin");
    int rounds = Integer.getInteger("ossgw.probe.rounds", 3);
    List<String> only = Arrays.asList(System.getProperty("ossgw.probe.clients", "sdk,lean,lean-sendfile,jdk").split(","));
    try (FileChannel ch = FileChannel.open(spool, StandardOpenOption.READ, StandardOpenOption.WRITE);
        AliyunObjectStore sdk = new AliyunObjectStore(config);
        ObjectStore lean = LeanDataStore.wrap(new AliyunObjectStore(config), config, false);
        ObjectStore sendfile = LeanDataStore.wrap(new AliyunObjectStore(config), config, true)) {
      ByteBuffer fill = ByteBuffer.allocate(1 << 20);
      for (long at = 0; at < SIZE; at += fill.capacity()) {
        for (int i = 0; i < fill.capacity(); i += 8) {
          fill.putLong(i, at + i * 0x9E3779B97F4A7C15L);
        }
        ch.write(fill.clear(), at);
      }
      // the object all clients read: 1 GiB, written once
      String id = sdk.initiateMultipartUpload("big", new WriteMeta(null, Map.of()));
      List<PartETag> parts = new ArrayList<>();
      for (int p = 0; p < SIZE / PART; p++) {
        parts.add(sdk.uploadPart("big", id, p + 1, ContentSource.ofFileRange(ch, (long) p * PART, PART)));
      }
      sdk.completeMultipartUpload("big", id, parts);
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      OssV4Signer signer = new OssV4Signer("ak", "sk", config.region());
      Map<String, ObjectStore> stores = new LinkedHashMap<>();
      stores.put("sdk", sdk);
      stores.put("lean", lean);
      stores.put("lean-sendfile", sendfile);
      ByteBuffer dst = ByteBuffer.allocateDirect(RANGE);
      for (int round = 0; round < rounds; round++) {
        for (var e : stores.entrySet()) {
          if (!only.contains(e.getKey())) {
            continue;
          }
          ObjectStore s = e.getValue();
          measure(e.getKey() + " put", round, () -> {
            String up = sdk.initiateMultipartUpload("up-" + e.getKey(), new WriteMeta(null, Map.of()));
            for (int p = 0; p < SIZE / PART; p++) {
              s.uploadPart("up-" + e.getKey(), up, p + 1, ContentSource.ofFileRange(ch, (long) p * PART, PART));
            }
            sdk.abortMultipartUpload("up-" + e.getKey(), up);
          });
          measure(e.getKey() + " get", round, () -> {
            for (long off = 0; off < SIZE; off += RANGE) {
              s.getObjectRange("big", off, dst.clear(), null);
            }
          });
        }
        if (only.contains("jdk")) {
          measure("java.net.http put", round, () -> {
            String up = sdk.initiateMultipartUpload("up-jdk", new WriteMeta(null, Map.of()));
            for (int p = 0; p < SIZE / PART; p++) {
              long start = (long) p * PART;
              HttpRequest.Builder b = signed(signer, endpoint, "PUT", "up-jdk",
                  Map.of("partNumber", Integer.toString(p + 1), "uploadId", up));
              b.PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(
                  () -> ContentSource.ofFileRange(ch, start, PART).openStream()), PART));
              HttpResponse<Void> r = http.send(b.build(), HttpResponse.BodyHandlers.discarding());
              if (r.statusCode() != 200) {
                throw new IllegalStateException("jdk put " + r.statusCode());
              }
            }
            sdk.abortMultipartUpload("up-jdk", up);
          });
          measure("java.net.http get", round, () -> {
            for (long off = 0; off < SIZE; off += RANGE) {
              HttpRequest.Builder b = signed(signer, endpoint, "GET", "big", Map.of());
              b.header("Range", "bytes=" + off + "-" + (off + RANGE - 1));
              HttpResponse<byte[]> r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
              dst.clear().put(r.body());
            }
          });
        }
      }
    } finally {
      Files.deleteIfExists(spool);
      if (emu != null) {
        emu.close();
      }
    }
  }

  private static HttpRequest.Builder signed(OssV4Signer signer, String endpoint, String method, String key,
      Map<String, String> query) {
    String dateTime = OssV4Signer.dateTime(System.currentTimeMillis() / 1000);
    Map<String, String> h = new LinkedHashMap<>();
    h.put("x-oss-date", dateTime);
    h.put("x-oss-content-sha256", "UNSIGNED-PAYLOAD");
    StringBuilder u = new StringBuilder(endpoint).append('/').append(BUCKET).append('/');
    OssV4Signer.encode(u, key, true);
    String sep = "?";
    for (var q : query.entrySet()) {
      u.append(sep).append(q.getKey()).append('=').append(q.getValue());
      sep = "&";
    }
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(u.toString()));
    h.forEach(b::header);
    return b.header("Authorization", signer.authorization(method, BUCKET, key, query, h, dateTime));
  }

  private static void measure(String what, int round, Transfer t) throws Exception {
    var threads = ManagementFactory.getThreadMXBean();
    long cpu0 = OS.getProcessCpuTime();
    long th0 = threads.getCurrentThreadCpuTime();
    long w0 = System.nanoTime();
    t.run();
    double scale = (double) GIB / SIZE;
    double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9 * scale;
    double th = (threads.getCurrentThreadCpuTime() - th0) / 1e9 * scale;
    double wall = (System.nanoTime() - w0) / 1e9;
    double load = OS.getSystemLoadAverage();
    System.out.printf(Locale.ROOT, "PROBE %-22s round %d: process %.2f CPU-s/GiB, thread %.2f, wall %.2f s (%.0f MB/s), load %.1f%n",
        what, round + 1, cpu, th, wall, SIZE / wall / 1e6, load);
  }
}
