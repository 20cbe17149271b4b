package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.engine.EngineException;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.store.tls.TlsErrors;
import io.ossgw.core.store.tls.TlsFront;
import io.ossgw.core.store.tls.TlsTrust;
import io.ossgw.core.util.Crc64;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lean client over TLS (issue 22 item 1) against the emulator behind a TLS terminator with a CA made for the run
 * ({@link TlsFront}): data verified end to end through both engines, certificates and host names checked, trust from
 * {@code javax.net.ssl.trustStore} and from a CA bundle, one handshake for many requests (keep-alive), resumed sessions
 * on new connections, untrusted servers failing at once with the endpoint named, and the SDK fallback on the same TLS.
 */
class LeanTlsTest {
  @TempDir
  static Path dir;
  static OssEmulator emu;
  static TlsFront.Pki pki;
  static TlsFront front;
  static TlsFront wrongName;

  @BeforeAll
  static void start() throws Exception {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("tls").credentials("ak", "sk").authEnabled(true)
        .build().start();
    pki = TlsFront.makePki(dir.resolve("pki"));
    int port = Integer.parseInt(emu.endpoint().substring(emu.endpoint().lastIndexOf(':') + 1));
    front = new TlsFront(pki.server(), port);
    wrongName = new TlsFront(pki.wrongName(), port);
  }

  @AfterAll
  static void stop() throws Exception {
    front.close();
    wrongName.close();
    emu.close();
  }

  static EngineConfig config(String endpoint, String... opts) {
    List<String> o = new ArrayList<>(List.of("url=" + endpoint, "retries=3"));
    o.addAll(List.of(opts));
    return EngineConfig.fromOptions("tls", "", MountOptions.parse(o), new Credentials("ak", "sk"), 0, 0, null);
  }

  static LeanDataStore lean(String endpoint, TlsTrust trust) {
    EngineConfig c = config(endpoint);
    return new LeanDataStore(new AliyunObjectStore(c), c, LeanOssClient.BodyMode.COPY, null, trust);
  }

  /** Runs {@code body} with {@code javax.net.ssl.trustStore} set to the run's CA (restored after). */
  static <T> T withTrustStore(Path store, java.util.concurrent.Callable<T> body) throws Exception {
    String old = System.getProperty("javax.net.ssl.trustStore");
    String oldPw = System.getProperty("javax.net.ssl.trustStorePassword");
    System.setProperty("javax.net.ssl.trustStore", store.toString());
    System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
    try {
      return body.call();
    } finally {
      restore("javax.net.ssl.trustStore", old);
      restore("javax.net.ssl.trustStorePassword", oldPw);
    }
  }

  static void restore(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  /** A trust whose CA bundle is the run's CA, with the engine {@code engine} (openssl or jdk). */
  static TlsTrust bundleTrust(String engine) {
    String old = System.getProperty("io.ossgw.tls.engine");
    System.setProperty("io.ossgw.tls.engine", engine);
    try {
      TlsTrust t = TlsTrust.withBundle(pki.caPem());
      assertThat(t.engineProvider()).isEqualTo(engine.equals("openssl") ? "BoringSSL" : "JDK");
      return t;
    } finally {
      restore("io.ossgw.tls.engine", old);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"openssl", "jdk"})
  void putGetHeadListOverTlsWithTheCaBundle(String engine) {
    TlsTrust trust = bundleTrust(engine);
    byte[] data = new byte[3 << 20];
    new SplittableRandom(7).nextBytes(data);
    try (LeanDataStore s = lean(front.endpoint(), trust)) {
      String key = "rt-" + engine + "/obj.bin";
      s.putObject(key, ContentSource.ofBytes(data), new WriteMeta("application/octet-stream", Map.of("mode", "33188")));
      assertThat(s.headObject(key).size()).isEqualTo(data.length);
      assertThat(s.headObject(key).userMeta()).containsEntry("mode", "33188");
      // direct and heap destinations, ranges that end inside a TLS record and span many of them
      for (ByteBuffer dst : List.of(ByteBuffer.allocateDirect(1 << 20), ByteBuffer.allocate(100_001))) {
        for (long off : new long[] {0, 5, 16_380, data.length - dst.capacity()}) {
          RangeRead r = s.getObjectRange(key, off, dst.clear(), null);
          assertThat(r.bytesRead()).isEqualTo(dst.capacity());
          byte[] got = new byte[dst.capacity()];
          dst.flip().get(got);
          assertThat(got).isEqualTo(java.util.Arrays.copyOfRange(data, (int) off, (int) off + got.length));
        }
      }
      ListPage page = s.listObjectsV2("rt-" + engine + "/", "/", null, null, 10);
      assertThat(page.objects()).extracting(o -> o.key()).containsExactly(key);
    }
    assertThat(trust.fullHandshakes()).isPositive();
  }

  @ParameterizedTest
  @ValueSource(strings = {"openssl", "jdk"})
  void manyHeadsShareOneHandshakeAndANewConnectionResumes(String engine) {
    TlsTrust trust = bundleTrust(engine);
    int accepted0 = front.accepted();
    try (LeanDataStore s = lean(front.endpoint(), trust)) {
      s.putObject("ka-" + engine, ContentSource.ofBytes(new byte[10]), new WriteMeta(null, Map.of()));
      for (int i = 0; i < 300; i++) {
        assertThat(s.headObject("ka-" + engine).size()).isEqualTo(10);
      }
      assertThat(s.connectionsOpened()).isEqualTo(1);
      assertThat(front.accepted() - accepted0).isEqualTo(1);
      assertThat(trust.fullHandshakes()).isEqualTo(1);
    }
    // a second client of the same trust (a new connection, as after idle eviction): resumed, no certificate check
    try (LeanDataStore s = lean(front.endpoint(), trust)) {
      for (int i = 0; i < 3; i++) {
        assertThat(s.headObject("ka-" + engine).size()).isEqualTo(10);
      }
      assertThat(s.connectionsOpened()).isEqualTo(1);
    }
    assertThat(front.accepted() - accepted0).isEqualTo(2);
    assertThat(trust.fullHandshakes()).as("the second connection resumed the first one's session").isEqualTo(1);
  }

  /**
   * Streamed parts (spool ranges with their writer's CRC-64) are encrypted over TLS from a mapping of the spool file,
   * with no pread copy: a multipart upload whose parts start off page boundaries, span several 4 MiB mapping slices
   * and end in a short one arrives byte for byte beside a part without its CRC (read back through a chunk), and each
   * streamed part is checked against its writer's CRC (a range whose bytes are not those is refused).
   */
  @ParameterizedTest
  @ValueSource(strings = {"openssl", "jdk"})
  void spoolRangesOverTlsArriveWhole(String engine) throws Exception {
    int p1 = (5 << 20) + 12_345;
    int p2 = (9 << 20) + 1;
    int p3 = 777;
    byte[] data = new byte[p1 + p2 + p3];
    new SplittableRandom(11).nextBytes(data);
    Path spool = Files.write(dir.resolve("spool-" + engine), data);
    TlsTrust trust = bundleTrust(engine);
    // InitiateMultipartUpload and Complete go through the SDK, which trusts the JVM's trust store
    withTrustStore(pki.caTrustStore(), () -> {
      try (LeanDataStore s = lean(front.endpoint(), trust);
          FileChannel ch = FileChannel.open(spool, StandardOpenOption.READ)) {
        String key = "mp-" + engine;
        String id = s.initiateMultipartUpload(key, new WriteMeta(null, Map.of()));
        PartETag a = s.uploadPart(key, id, 1, ContentSource.ofFileRange(ch, 0, p1));
        long crc2 = Crc64.of(data, p1, p2);
        PartETag b = s.uploadPart(key, id, 2, ContentSource.ofFileRange(ch, p1, p2, crc2));
        long crc3 = Crc64.of(data, p1 + p2, p3);
        PartETag c = s.uploadPart(key, id, 3, ContentSource.ofFileRange(ch, p1 + p2, p3, crc3));
        assertThat(a.crc64()).isEqualTo(Crc64.of(data, 0, p1));
        assertThat(b.crc64()).isEqualTo(crc2);
        assertThat(c.crc64()).isEqualTo(crc3);
        // a part whose bytes are not the ones its CRC is of: OSS's CRC of what arrived refuses it
        assertThatThrownBy(() -> s.uploadPart(key, id, 4, ContentSource.ofFileRange(ch, 0, p3, crc2)))
            .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
        s.completeMultipartUpload(key, id, List.of(a, b, c));
        ByteBuffer got = ByteBuffer.allocate(data.length);
        assertThat(s.getObjectRange(key, 0, got, null).bytesRead()).isEqualTo(data.length);
        assertThat(got.array()).isEqualTo(data);
      }
      return null;
    });
  }

  @Test
  void theJvmTrustStoreIsHonouredAndWithoutItTheServerIsRefused() throws Exception {
    // no CA bundle at all: only javax.net.ssl.trustStore can make the run's CA trusted
    withTrustStore(pki.caTrustStore(), () -> {
      try (LeanDataStore s = lean(front.endpoint(), TlsTrust.withBundle(null))) {
        s.putObject("ts", ContentSource.ofBytes(new byte[] {1, 2, 3}), new WriteMeta(null, Map.of()));
        assertThat(s.headObject("ts").size()).isEqualTo(3);
      }
      return null;
    });
    int accepted0 = front.accepted();
    try (LeanDataStore s = lean(front.endpoint(), TlsTrust.withBundle(null))) {
      assertThatThrownBy(() -> s.headObject("ts")).isInstanceOfSatisfying(StoreException.class, e -> {
        assertThat(e.code()).isEqualTo(TlsErrors.CERTIFICATE);
        assertThat(e.kind()).isEqualTo(StoreErrorKind.OTHER); // not transient: never retried
        assertThat(e.getMessage()).contains(front.endpoint(), "not accepted", "javax.net.ssl.trustStore");
      });
    }
    assertThat(front.accepted() - accepted0).isEqualTo(1);
  }

  @Test
  void aCertificateForAnotherNameIsRefused() {
    try (LeanDataStore s = lean(wrongName.endpoint(), TlsTrust.withBundle(pki.caPem()))) {
      assertThatThrownBy(() -> s.headObject("x")).isInstanceOfSatisfying(StoreException.class, e -> {
        assertThat(e.code()).isEqualTo(TlsErrors.CERTIFICATE);
        assertThat(e.getMessage()).contains(wrongName.endpoint(), "127.0.0.1");
      });
    }
  }

  @Test
  void anUntrustedEndpointFailsTheMountAtStartNamingIt() {
    // the process's trust (JVM trust store, system CA bundle) does not know the run's CA
    int accepted0 = front.accepted();
    assertThatThrownBy(() -> Engine.start(config(front.endpoint()))).isInstanceOfSatisfying(EngineException.class,
        e -> assertThat(e.getMessage()).contains("TLS certificate of " + front.endpoint(), "not accepted",
            "javax.net.ssl.trustStore"));
    assertThat(front.accepted() - accepted0).as("no retries of an untrusted server").isEqualTo(1);
    assertThatThrownBy(() -> Engine.start(config(wrongName.endpoint(), "data_path=sdk")))
        .isInstanceOf(EngineException.class).hasMessageContaining(wrongName.endpoint());
  }

  @Test
  void theWholeEngineAndTheSdkFallbackRunOverTlsWithTheJvmTrustStore() throws Exception {
    withTrustStore(pki.caTrustStore(), () -> {
      // V4 on the lean path (the default) and the SDK fallback (data_path=sdk; sigv1 takes it too) over https
      for (String[] opts : new String[][] {{}, {"data_path=sdk"}, {"sigv1"}}) {
        EngineConfig c = config(front.endpoint(), opts);
        try (Engine e = Engine.start(c)) {
          assertThat(e.fileSystem()).isNotNull();
        }
        try (ObjectStore s = io.ossgw.core.store.lean.LeanDataStore.wrap(new AliyunObjectStore(c), c)) {
          assertThat(s instanceof LeanDataStore).isEqualTo(opts.length == 0);
          byte[] data = new byte[200_000];
          new SplittableRandom(opts.length).nextBytes(data);
          String key = "engine-" + String.join("-", opts);
          s.putObject(key, ContentSource.ofBytes(data), new WriteMeta(null, Map.of()));
          ByteBuffer dst = ByteBuffer.allocate(data.length);
          s.getObjectRange(key, 0, dst, null);
          assertThat(dst.array()).isEqualTo(data);
        }
      }
      return null;
    });
    // the SDK fallback refuses an untrusted server as the lean path does: at once, not as a transient error
    EngineConfig c = config(front.endpoint(), "data_path=sdk");
    try (AliyunObjectStore s = new AliyunObjectStore(c)) {
      assertThatThrownBy(() -> s.headObject("x")).isInstanceOfSatisfying(StoreException.class,
          e -> assertThat(e.code()).isEqualTo(TlsErrors.CERTIFICATE));
    }
  }
}
