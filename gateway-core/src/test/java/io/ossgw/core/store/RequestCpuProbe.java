package io.ossgw.core.store;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.observe.EngineObserver;
import io.ossgw.core.observe.ObservedObjectStore;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.emulator.OssEmulator;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Client-side CPU per OSS request (issue 14 item 2), not a test: runs only with {@code -Dossgw.probe=true}
 * ({@code ./mvnw -B -o -pl gateway-core -am test -Dtest=RequestCpuProbe -Dsurefire.failIfNoSpecifiedTests=false
 * -Dossgw.probe=true}). Each client sends {@code ossgw.probe.n} (3,000) requests to an in-process emulator from one
 * thread, after as many to warm the JIT, and the calling thread's CPU time ({@link ThreadMXBean}, so neither the
 * emulator's threads nor wall-clock waits count) is divided by the count; 5 rounds, the median is printed. The clients:
 * ossgw's store as the engine builds it (observed + retrying over {@link AliyunObjectStore}), the bare
 * aliyun-sdk-oss client, {@link HttpClient} and a plain keep-alive socket (both unsigned, against an emulator with
 * authentication off: the floor of an HTTP round trip on this JVM).
 */
@EnabledIfSystemProperty(named = "ossgw.probe", matches = "true")
class RequestCpuProbe {
  private static final String BUCKET = System.getProperty("ossgw.probe.bucket", "probe");
  private static final int N = Integer.getInteger("ossgw.probe.n", 3000);
  private static final int ROUNDS = 5;
  /** Listings of 1,000 entries per round (each is ~1,000 entries of parsing). */
  private static final int N_LIST = Integer.getInteger("ossgw.probe.nlist", 100);
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  interface Call {
    void run(int i) throws Exception;
  }

  @Test
  void cpuPerRequest() throws Exception {
    // external emulators (`ossgw emulator --bucket probe [--access-key ak --secret-key sk]`) keep their CPU out of
    // this process's; without them both run in-process and only the per-thread figures mean anything
    String signedUrl = System.getProperty("ossgw.probe.signed");
    String openUrl = System.getProperty("ossgw.probe.open");
    OssEmulator signedEmu = signedUrl != null ? null : OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET)
        .credentials("ak", "sk").authEnabled(true).build().start();
    OssEmulator openEmu = openUrl != null ? null : OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET)
        .authEnabled(false).build().start();
    String signedEndpoint = signedUrl != null ? signedUrl : signedEmu.endpoint();
    String openEndpoint = openUrl != null ? openUrl : openEmu.endpoint();
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    OSS sdk = OSSClientBuilder.create().endpoint(signedEndpoint).credentialsProvider(new DefaultCredentialProvider("ak", "sk"))
        .clientConfiguration(conf).region("cn-hangzhou").build();
    byte[] small = new byte[1024];
    for (int i = 0; i < 16; i++) {
      sdk.putObject(BUCKET, "o" + i, new ByteArrayInputStream(small));
    }
    for (int i = 0; i < 1000; i++) {
      sdk.putObject(BUCKET, String.format(Locale.ROOT, "l/f%05d", i), new ByteArrayInputStream(new byte[0]));
    }
    EngineConfig config = EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(List.of("url=" + signedEndpoint)),
        new Credentials("ak", "sk"), 1000, 1000, null);
    ObjectStore store = new RetryingObjectStore(new ObservedObjectStore(new AliyunObjectStore(config), EngineObserver.NONE),
        config.retries(), 100, 5_000, null);
    ObjectStore bare = new AliyunObjectStore(config);
    ObjectStore lean = new RetryingObjectStore(new ObservedObjectStore(
        io.ossgw.core.store.lean.LeanDataStore.wrap(new AliyunObjectStore(config), config), EngineObserver.NONE),
        config.retries(), 100, 5_000, null);
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    URI base = URI.create(openEndpoint + "/" + BUCKET + "/");
    try (Socket socket = new Socket("127.0.0.1", URI.create(openEndpoint).getPort())) {
      for (int i = 0; i < 16; i++) {
        http.send(HttpRequest.newBuilder(base.resolve("o" + i)).PUT(HttpRequest.BodyPublishers.ofByteArray(small)).build(),
            HttpResponse.BodyHandlers.discarding());
      }
      ByteBuffer dst = ByteBuffer.allocate(1024);
      InputStream sin = new java.io.BufferedInputStream(socket.getInputStream(), 8192);
      String host = URI.create(openEndpoint).getAuthority();
      // the first client measured also pays for warming the code all of them share: it runs again at the end
      report("HEAD ossgw store (observed+retrying+AliyunObjectStore)", i -> store.headObject("o" + (i & 15)));
      report("HEAD AliyunObjectStore alone", i -> bare.headObject("o" + (i & 15)));
      report("HEAD ossgw store, again", i -> store.headObject("o" + (i & 15)));
      report("HEAD ossgw store, lean path", i -> lean.headObject("o" + (i & 15)));
      report("LIST 1000 ossgw store (SDK)", N_LIST, i -> store.listObjectsV2("l/", "/", null, null, 1000));
      report("LIST 1000 ossgw store, lean path", N_LIST, i -> lean.listObjectsV2("l/", "/", null, null, 1000));
      report("LIST 1000 ossgw store (SDK), again", N_LIST, i -> store.listObjectsV2("l/", "/", null, null, 1000));
      report("HEAD aliyun-sdk-oss getObjectMetadata (V4)", i -> sdk.getObjectMetadata(BUCKET, "o" + (i & 15)));
      report("HEAD java.net.http (unsigned)", i -> http.send(HttpRequest.newBuilder(base.resolve("o" + (i & 15)))
          .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()));
      report("HEAD plain socket (unsigned, keep-alive)", i -> rawHead(socket, sin, host, "/" + BUCKET + "/o" + (i & 15)));
      report("GET 1 KiB ossgw store (ranged)", i -> {
        dst.clear();
        store.getObjectRange("o" + (i & 15), 0, dst, null);
      });
      report("GET 1 KiB aliyun-sdk-oss getObject", i -> {
        try (var o = sdk.getObject(BUCKET, "o" + (i & 15))) {
          o.getObjectContent().readAllBytes();
        }
      });
      report("GET 1 KiB java.net.http (unsigned)", i -> http.send(HttpRequest.newBuilder(base.resolve("o" + (i & 15))).GET()
          .build(), HttpResponse.BodyHandlers.ofByteArray()));
      report("GET 1 KiB ossgw store (ranged), again", i -> {
        dst.clear();
        store.getObjectRange("o" + (i & 15), 0, dst, null);
      });
      report("GET 1 KiB ossgw store, lean data path", i -> {
        dst.clear();
        lean.getObjectRange("o" + (i & 15), 0, dst, null);
      });
      WriteMeta meta = new WriteMeta(null, java.util.Map.of("mode", "33188", "mtime", "1764000000"));
      report("PUT 1 KiB ossgw store (SDK)", i -> store.putObject("p" + (i & 15), ContentSource.ofBytes(small), meta));
      report("PUT 1 KiB ossgw store, lean data path", i -> lean.putObject("p" + (i & 15), ContentSource.ofBytes(small), meta));
    } finally {
      store.close();
      bare.close();
      lean.close();
      sdk.shutdown();
      if (signedEmu != null) {
        signedEmu.close();
      }
      if (openEmu != null) {
        openEmu.close();
      }
    }
  }

  /**
   * A cold listing of {@code ossgw.probe.ls} (3,000) objects written by another client, as the engine does it for
   * {@code ls -l}: each round a fresh engine (empty caches, no state dir), wall time and this process's CPU; the first
   * round also pays the JIT. Modes: the default with {@code multireq_max} 20 / 32 / 64 HEADs in flight, and
   * {@code readdir_optimize}.
   */
  @Test
  void coldListing() throws Exception {
    String signedUrl = System.getProperty("ossgw.probe.signed");
    OssEmulator emu = signedUrl != null ? null : OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET)
        .credentials("ak", "sk").authEnabled(true).build().start();
    String endpoint = signedUrl != null ? signedUrl : emu.endpoint();
    int n = Integer.getInteger("ossgw.probe.ls", 3000);
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    OSS sdk = OSSClientBuilder.create().endpoint(endpoint).credentialsProvider(new DefaultCredentialProvider("ak", "sk"))
        .clientConfiguration(conf).region("cn-hangzhou").build();
    try {
      java.util.concurrent.ExecutorService seed = java.util.concurrent.Executors.newFixedThreadPool(16);
      List<java.util.concurrent.Future<?>> puts = new ArrayList<>();
      for (int i = 0; i < (Boolean.getBoolean("ossgw.probe.seeded") ? 0 : n); i++) {
        String key = String.format(Locale.ROOT, "ls/f%05d", i);
        puts.add(seed.submit(() -> sdk.putObject(BUCKET, key, new ByteArrayInputStream(new byte[1024]))));
      }
      for (var f : puts) {
        f.get();
      }
      seed.shutdown();
      // ossgw.probe.modes: modes separated by '|', the options of one mode by ';'
      String[][] modes = System.getProperty("ossgw.probe.modes") != null
          ? java.util.Arrays.stream(System.getProperty("ossgw.probe.modes").split("\\|")).map(m -> m.split(";"))
              .toArray(String[][]::new)
          : new String[][] {{"multireq_max=20"}, {"multireq_max=32"}, {"multireq_max=64"}, {"readdir_optimize"}};
      for (int round = 0; round < Integer.getInteger("ossgw.probe.rounds", 4); round++) {
        for (String[] mode : modes) {
          List<String> o = new ArrayList<>(List.of("url=" + endpoint));
          o.addAll(List.of(mode));
          EngineConfig config = EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(o), new Credentials("ak", "sk"),
              1000, 1000, null);
          try (io.ossgw.core.engine.Engine e = io.ossgw.core.engine.Engine.start(config)) {
            var fs = e.fileSystem();
            fs.getattr("/ls");
            long cpu0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            int entries = fs.readdir("/ls").entries().size();
            double wall = (System.nanoTime() - t0) / 1e9;
            double cpu = (OS.getProcessCpuTime() - cpu0) / 1e9;
            System.out.printf(Locale.ROOT, "PROBE ls round %d %-18s %d entries: %.3f s wall, %.3f CPU-s (%.3f ms/entry); load %.2f%n",
                round, String.join(",", mode), entries, wall, cpu, cpu * 1000 / n, OS.getSystemLoadAverage());
          }
        }
      }
    } finally {
      sdk.shutdown();
      if (emu != null) {
        emu.close();
      }
    }
  }

  private static void report(String name, Call call) throws Exception {
    report(name, N, call);
  }

  private static void report(String name, int n, Call call) throws Exception {
    String only = System.getProperty("ossgw.probe.only");
    if (only != null && !name.startsWith(only)) {
      return;
    }
    long p0 = OS.getProcessCpuTime();
    for (int i = 0; i < n; i++) {
      call.run(i);
    }
    double coldMs = (OS.getProcessCpuTime() - p0) / 1e6 / n;
    double[] perRequestMs = new double[ROUNDS];
    double[] threadMs = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long cpu0 = THREADS.getCurrentThreadCpuTime();
      long proc0 = OS.getProcessCpuTime();
      for (int i = 0; i < n; i++) {
        call.run(i);
      }
      threadMs[r] = (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6 / n;
      perRequestMs[r] = (OS.getProcessCpuTime() - proc0) / 1e6 / n;
    }
    Arrays.sort(threadMs);
    double[] sorted = perRequestMs.clone();
    Arrays.sort(sorted);
    List<String> rounds = new ArrayList<>();
    for (double d : perRequestMs) {
      rounds.add(String.format(Locale.ROOT, "%.3f", d));
    }
    System.out.printf(Locale.ROOT,
        "PROBE %-56s process %.3f ms CPU/request (rounds %s), calling thread %.3f, first %d (cold JIT) %.3f; load %.2f%n",
        name, sorted[ROUNDS / 2], rounds, threadMs[ROUNDS / 2], n, coldMs, OS.getSystemLoadAverage());
  }

  /** One HEAD over a kept-alive socket; reads the status line and headers up to the blank line (HEAD has no body). */
  private static void rawHead(Socket s, InputStream in, String host, String path) throws Exception {
    OutputStream out = s.getOutputStream();
    out.write(("HEAD " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    int state = 0;
    while (state < 4) {
      int c = in.read();
      if (c < 0) {
        throw new java.io.EOFException();
      }
      state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
    }
  }
}
