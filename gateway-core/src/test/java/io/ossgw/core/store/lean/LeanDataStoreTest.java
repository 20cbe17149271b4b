package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.testsupport.Slowdown;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wire fidelity of the lean data path against the emulator (V4 verified): what it writes, aliyun-sdk-oss reads back
 * byte for byte with its metadata; what the SDK wrote, it reads in ranges; its errors keep the SDK path's kinds; it
 * keeps connections alive, drops a connection that failed, and refuses what OSS would refuse before sending it.
 */
class LeanDataStoreTest extends LeanEmulatorTest {
  LeanDataStoreTest() {
    super("lean");
  }

  /** A lean store of its own (the caller closes it) for this class's bucket, plus the mount options given. */
  LeanDataStore lean(String... opts) {
    return lean(config(emu.endpoint(), "lean", new Credentials("ak", "sk"), opts));
  }

  static FileChannel spool(Path dir, byte[] data) throws IOException {
    return FileChannel.open(Files.write(dir.resolve("spool"), data), StandardOpenOption.READ);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void theSdkReadsBackWhatTheLeanPathWrote(boolean sendfile, @TempDir Path dir) throws IOException {
    EngineConfig c = config(emu.endpoint(), "lean", new Credentials("ak", "sk"));
    byte[] data = random(3 * 1024 * 1024 + 17, 1);
    try (ObjectStore s = LeanDataStore.wrap(new AliyunObjectStore(c), c, sendfile); FileChannel ch = spool(dir, data)) {
      String key = "wire/" + sendfile + "/a b+ü%.bin";
      WriteResult w = s.putObject(key, ContentSource.ofFileRange(ch, 0, data.length),
          new WriteMeta("text/x-ossgw", Map.of("mode", "33188", "uid", "1000", "mtime", "1764000000.5")));
      ObjectMetadata md = sdk.getObjectMetadata("lean", key);
      assertThat(md.getContentLength()).isEqualTo(data.length);
      assertThat(md.getContentType()).isEqualTo("text/x-ossgw");
      assertThat(md.getUserMetadata()).containsEntry("mode", "33188").containsEntry("uid", "1000")
          .containsEntry("mtime", "1764000000.5");
      assertThat(md.getETag()).isEqualTo(w.etag());
      assertThat(md.getServerCRC()).isEqualTo(Long.parseUnsignedLong(w.crc64()));
      try (var o = sdk.getObject("lean", key); InputStream in = o.getObjectContent()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
      // parts: uploaded by the lean path, completed by the SDK path, read by the SDK
      String id = s.initiateMultipartUpload(key + ".mp", new WriteMeta(null, Map.of("mode", "33261")));
      int part = 1024 * 1024 + 3;
      PartETag p1 = s.uploadPart(key + ".mp", id, 1, ContentSource.ofFileRange(ch, 0, part));
      PartETag p2 = s.uploadPart(key + ".mp", id, 2, ContentSource.ofBytes(data, part, data.length - part));
      assertThat(p1.crc64()).isNotNull();
      assertThat(p2.crc64()).isNotNull();
      s.completeMultipartUpload(key + ".mp", id, List.of(p1, p2));
      try (var o = sdk.getObject("lean", key + ".mp"); InputStream in = o.getObjectContent()) {
        assertThat(in.readAllBytes()).isEqualTo(data);
        assertThat(o.getObjectMetadata().getUserMetadata()).containsEntry("mode", "33261");
      }
    }
  }

  @Test
  void rangedGetsOfWhatTheSdkWrote() {
    byte[] data = random(700_000, 2);
    ObjectMetadata md = new ObjectMetadata();
    md.addUserMetadata("mode", "33188");
    sdk.putObject("lean", "ranges", new java.io.ByteArrayInputStream(data), md);
    try (LeanDataStore s = lean()) {
      for (int[] r : new int[][] {{0, 1}, {0, 700_000}, {123_457, 65_536}, {699_990, 100}, {1, 300_000}}) {
        for (ByteBuffer dst : List.of(ByteBuffer.allocate(r[1]), ByteBuffer.allocateDirect(r[1]))) {
          RangeRead got = s.getObjectRange("ranges", r[0], dst, null);
          int n = Math.min(r[1], data.length - r[0]);
          assertThat(got.bytesRead()).isEqualTo(n);
          assertThat(got.objectSize()).isEqualTo(data.length);
          assertThat(got.object().userMeta()).containsEntry("mode", "33188");
          assertThat(got.object().lastModified()).isNotNull();
          byte[] b = new byte[n];
          dst.flip().get(b);
          assertThat(b).isEqualTo(java.util.Arrays.copyOfRange(data, r[0], r[0] + n));
        }
      }
      assertThat(s.getObjectRange("ranges", 700_000, ByteBuffer.allocate(10), null).bytesRead()).isZero();
      assertThat(s.getObjectRange("ranges", 0, ByteBuffer.allocate(0), null).bytesRead()).isZero();
      assertThatThrownBy(() -> s.getObjectRange("ranges", 0, ByteBuffer.allocate(5), "0123456789ABCDEF0123456789ABCDEF"))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.PRECONDITION_FAILED);
            assertThat(e.httpStatus()).isEqualTo(412);
          });
      assertThatThrownBy(() -> s.getObjectRange("absent", 0, ByteBuffer.allocate(5), null))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.NOT_FOUND));
      // every request above, error replies included, went over one kept-alive connection
      assertThat(s.connectionsOpened()).isEqualTo(1);
    }
  }

  @Test
  void errorsKeepTheSdkPathsKinds() {
    try (LeanDataStore wrong = lean(config(emu.endpoint(), "lean", new Credentials("ak", "wrong-secret")))) {
      assertThatThrownBy(() -> wrong.putObject("x", ContentSource.ofBytes(new byte[100]), new WriteMeta(null, null)))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.ACCESS_DENIED);
            assertThat(e.code()).isEqualTo("SignatureDoesNotMatch");
            assertThat(e.getMessage()).doesNotContain("wrong-secret");
          });
      assertThatThrownBy(() -> wrong.getObjectRange("x", 0, ByteBuffer.allocate(1), null))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.ACCESS_DENIED));
    }
    try (LeanDataStore missing = lean(config(emu.endpoint(), "no-such-bucket", new Credentials("ak", "sk")))) {
      assertThatThrownBy(() -> missing.putObject("x", ContentSource.ofBytes(new byte[1]), new WriteMeta(null, null)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.NO_SUCH_BUCKET));
      assertThatThrownBy(() -> missing.getObjectRange("x", 0, ByteBuffer.allocate(1), null))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.NO_SUCH_BUCKET));
    }
    try (LeanDataStore s = lean()) {
      emu.faults().failNext(1, 503, "SlowDown", Set.of("UploadPart"));
      String id = s.initiateMultipartUpload("e5", new WriteMeta(null, null));
      assertThatThrownBy(() -> s.uploadPart("e5", id, 1, ContentSource.ofBytes(new byte[10])))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT);
            assertThat(e.code()).isEqualTo("SlowDown");
          });
      emu.faults().failNext(1, 502, "BadGateway", Set.of("GetObject"));
      assertThatThrownBy(() -> s.getObjectRange("e5", 0, ByteBuffer.allocate(1), null))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT));
      emu.faults().resetConnections(1.0, Set.of("PutObject"));
      assertThatThrownBy(() -> s.putObject("reset", ContentSource.ofBytes(new byte[1000]), new WriteMeta(null, null)))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT);
            assertThat(e.code()).isEqualTo("ConnectionError");
          });
      emu.faults().clear();
      assertThat(s.putObject("reset", ContentSource.ofBytes(new byte[1000]), new WriteMeta(null, null)).etag()).isNotBlank();
    } finally {
      emu.faults().clear();
    }
  }

  @Test
  void aConnectionDroppedMidBodyIsTransientAndNotReused() throws IOException {
    byte[] data = random(2 * 1024 * 1024, 3);
    sdk.putObject("lean", "dropped", new java.io.ByteArrayInputStream(data));
    try (CuttingProxy proxy = new CuttingProxy(URI.create(emu.endpoint()).getPort());
        LeanDataStore s = lean(config("http://127.0.0.1:" + proxy.port(), "lean", new Credentials("ak", "sk")))) {
      proxy.cutAfter = 100_000; // reply bytes: the head and part of the body
      ByteBuffer dst = ByteBuffer.allocateDirect(data.length);
      assertThatThrownBy(() -> s.getObjectRange("dropped", 0, dst, null))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT);
            assertThat(e.code()).isEqualTo("ConnectionError");
          });
      proxy.cutAfter = Long.MAX_VALUE;
      assertThat(s.getObjectRange("dropped", 0, dst.clear(), null).bytesRead()).isEqualTo(data.length);
      assertThat(s.connectionsOpened()).isEqualTo(2);
    }
  }

  @Test
  void aStalledReplyTimesOut() {
    try (LeanDataStore s = lean("readwrite_timeout=1")) {
      s.putObject("slow", ContentSource.ofBytes(new byte[10]), new WriteMeta(null, null));
      emu.faults().latency(Duration.ofSeconds(4));
      long gets = emu.counters().get("GetObject");
      long t0 = System.nanoTime();
      assertThatThrownBy(() -> s.getObjectRange("slow", 0, ByteBuffer.allocate(10), null))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT);
            assertThat(e.code()).isEqualTo("SocketTimeout");
          });
      // one timeout, not two: a timed-out request on a kept-alive connection is not sent again (the emulator counts
      // each request as it arrives, before the latency); the time allows 1 s of timeout and 1.5 s of a quiet machine
      assertThat(emu.counters().get("GetObject") - gets).as("GetObject requests").isEqualTo(1);
      assertThat(Duration.ofNanos(System.nanoTime() - t0))
          .isLessThan(Duration.ofSeconds(1).plus(Slowdown.scaled(Duration.ofMillis(1500))));
      assertThat(s.connectionsOpened()).isEqualTo(1);
    } finally {
      emu.faults().clear();
    }
  }

  @Test
  void aBodyOverOssLimitIsRefusedBeforeSending() {
    ContentSource huge = new ContentSource() {
      @Override
      public long length() {
        return LeanDataStore.MAX_BODY + 1;
      }

      @Override
      public InputStream openStream() {
        throw new AssertionError("must not be read");
      }
    };
    try (LeanDataStore s = lean()) {
      assertThatThrownBy(() -> s.uploadPart("huge", "id", 1, huge))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.INVALID_REQUEST);
            assertThat(e.code()).isEqualTo("EntityTooLarge");
          });
      assertThatThrownBy(() -> s.putObject("huge", huge, new WriteMeta(null, null)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("EntityTooLarge"));
      assertThat(s.connectionsOpened()).isZero();
    }
  }

  @Test
  void stsTokenAndContentMd5AreSignedAndSent() {
    try (LeanDataStore s = lean(config(emu.endpoint(), "lean", new Credentials("ak", "sk", "sts-token"),
        "enable_content_md5"))) {
      byte[] data = random(200_000, 4);
      s.putObject("md5", ContentSource.ofBytes(data), new WriteMeta(null, null));
      assertThat(sdk.getObjectMetadata("lean", "md5").getContentLength()).isEqualTo(data.length);
    }
  }

  @Test
  void aHostNameEndpointIsAddressedVirtualHosted() throws IOException {
    try (OssEmulator vh = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("vhb").credentials("ak", "sk")
        .authEnabled(true).virtualHostBase("oss-local.test").build().start()) {
      // no DNS for vhb.oss-local.test here: connect to 127.0.0.1 (a proxy that records the requests), send
      // Host: vhb.oss-local.test:PORT
      CuttingProxy proxy = new CuttingProxy(vh.port());
      EngineConfig c = config("http://oss-local.test:" + proxy.port(), "vhb", new Credentials("ak", "sk"));
      try (proxy; LeanDataStore s = new LeanDataStore(new AliyunObjectStore(c), c, LeanOssClient.BodyMode.COPY, "127.0.0.1")) {
        s.putObject("d/k ü", ContentSource.ofBytes(new byte[] {1, 2, 3}), new WriteMeta(null, Map.of("mode", "33188")));
        ByteBuffer b = ByteBuffer.allocate(3);
        assertThat(s.getObjectRange("d/k ü", 0, b, null).object().userMeta()).containsEntry("mode", "33188");
        assertThat(b.array()).containsExactly(1, 2, 3);
        // HeadObject and ListObjectsV2 (a bucket-level request: "/" under the virtual Host) on the lean path too
        assertThat(s.headObject("d/k ü").size()).isEqualTo(3);
        assertThat(s.listObjectsV2("d/", "/", null, null, 10).objects()).extracting(o -> o.key()).containsExactly("d/k ü");
        assertThat(vh.counters().snapshot()).containsEntry("PutObject", 1L).containsEntry("GetObject", 1L)
            .containsEntry("HeadObject", 1L);
        assertThat(proxy.sent.toString()).contains("PUT /d/k%20%C3%BC HTTP/1.1\r\n", "GET /d/k%20%C3%BC HTTP/1.1\r\n")
            .contains("HEAD /d/k%20%C3%BC HTTP/1.1\r\n", "GET /?list-type=2&prefix=d%2F&delimiter=%2F")
            .contains("\r\nHost: vhb.oss-local.test:" + proxy.port() + "\r\n");
      }
      // the key is the one written (a path-style request under a virtual Host would have written "vhb/d/k ü")
      ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
      conf.setSignatureVersion(SignVersion.V4);
      OSS pathStyle = OSSClientBuilder.create().endpoint(vh.endpoint())
          .credentialsProvider(new DefaultCredentialProvider("ak", "sk")).clientConfiguration(conf).region("cn-hangzhou")
          .build();
      try {
        assertThat(pathStyle.getObjectMetadata("vhb", "d/k ü").getContentLength()).isEqualTo(3);
      } finally {
        pathStyle.shutdown();
      }
    }
  }

  /**
   * Behind the lean path, listing, HEAD, GET, PUT, copies, deletes, a multipart upload's initiate, part copies,
   * complete and abort, appends, ListMultipartUploads and metadata values that are not ASCII never build an SDK
   * client; the first write whose metadata has a name that is not ASCII does.
   */
  @Test
  void theSdkClientsAreBuiltOnFirstUseOnly() {
    EngineConfig c = config(emu.endpoint(), "lean", new Credentials("ak", "sk"));
    AliyunObjectStore sdk = new AliyunObjectStore(c);
    try (ObjectStore s = LeanDataStore.wrap(sdk, c)) {
      s.listObjectsV2("", "/", null, null, 10);
      s.putObject("lazy", ContentSource.ofBytes(new byte[] {7}), new WriteMeta(null, Map.of()));
      assertThat(s.headObject("lazy").size()).isEqualTo(1);
      assertThat(s.getObjectRange("lazy", 0, ByteBuffer.allocate(1), null).bytesRead()).isEqualTo(1);
      assertThat(sdk.clientsBuilt()).isZero();
      s.copyObject("lazy", "lazy2", null);
      s.deleteObjects(List.of("lazy2"));
      s.deleteObject("never-was");
      assertThat(sdk.clientsBuilt()).isZero();
      String upload = s.initiateMultipartUpload("lazy3", new WriteMeta(null, Map.of()));
      PartETag part = s.uploadPart("lazy3", upload, 1, ContentSource.ofBytes(new byte[100 * 1024]));
      PartETag copied = s.uploadPartCopy("lazy", 0, 1, "lazy3", upload, 2);
      s.completeMultipartUpload("lazy3", upload, List.of(part, copied));
      s.abortMultipartUpload("lazy5", s.initiateMultipartUpload("lazy5", new WriteMeta(null, Map.of())));
      s.appendObject("lazy6", 0, ContentSource.ofBytes(new byte[] {1}), new WriteMeta(null, Map.of()));
      assertThat(s.appendObject("lazy6", 1, ContentSource.ofBytes(new byte[] {2}), new WriteMeta(null, Map.of()))
          .nextPosition()).isEqualTo(2);
      assertThat(s.listMultipartUploads("", null, null, 10).uploads()).isEmpty();
      assertThat(sdk.clientsBuilt()).isZero();
      s.putObject("lazy7", ContentSource.ofBytes(new byte[] {3}), new WriteMeta(null, Map.of("note", "ü")));
      assertThat(sdk.clientsBuilt()).isZero();
      s.putObject("lazy8", ContentSource.ofBytes(new byte[] {3}), new WriteMeta(null, Map.of("nöte", "x")));
      assertThat(sdk.clientsBuilt()).isEqualTo(1);
    }
    assertThatThrownBy(() -> sdk.copyObject("lazy", "lazy4", null)).isInstanceOf(StoreException.class);
  }

  /**
   * Metadata values that are not ASCII go over the lean path as aliyun-sdk-oss sends them (UTF-8 bytes, signed as
   * such): PutObject, InitiateMultipartUpload, CopyObject and AppendObject; aliyun-sdk-oss reads back the same strings.
   */
  @Test
  void metadataValuesThatAreNotAsciiTravelAsTheSdkSendsThem() {
    EngineConfig c = config(emu.endpoint(), "lean", new Credentials("ak", "sk"));
    AliyunObjectStore sdk = new AliyunObjectStore(c);
    Map<String, String> meta = Map.of("note", "ü 日本 \uD83D\uDE00 é", "mode", "33188");
    try (ObjectStore s = LeanDataStore.wrap(sdk, c)) {
      s.putObject("u/put", ContentSource.ofBytes(new byte[] {1}), new WriteMeta("text/plain; charset=ü", meta));
      String upload = s.initiateMultipartUpload("u/mpu", new WriteMeta(null, meta));
      PartETag part = s.uploadPart("u/mpu", upload, 1, ContentSource.ofBytes(new byte[] {2}));
      s.completeMultipartUpload("u/mpu", upload, List.of(part));
      s.copyObject("u/put", "u/copy", new WriteMeta(null, Map.of("note", "コピー")));
      s.appendObject("u/app", 0, ContentSource.ofBytes(new byte[] {3}), new WriteMeta(null, meta));
      assertThat(sdk.clientsBuilt()).isZero();
      assertThat(s.headObject("u/put").userMeta()).containsAllEntriesOf(meta);
      for (String k : List.of("u/put", "u/mpu", "u/app")) {
        assertThat(sdk.headObject(k).userMeta()).as(k).containsAllEntriesOf(meta);
      }
      assertThat(sdk.headObject("u/copy").userMeta()).containsEntry("note", "コピー");
      assertThat(sdk.headObject("u/put").contentType()).isEqualTo("text/plain; charset=ü");
    }
  }

  @Test
  void theSwitchAndTheLimitsOfThePath() {
    Credentials k = new Credentials("ak", "sk");
    assertThat(LeanDataStore.supports(config(emu.endpoint(), "lean", k))).isTrue();
    assertThat(LeanDataStore.supports(config(emu.endpoint(), "lean", k, "data_path=sdk"))).isFalse();
    assertThat(LeanDataStore.supports(config(emu.endpoint(), "lean", k, "sigv1"))).isFalse();
    // https:// takes the lean path too since issue 22 (LeanTlsTest); a scheme the client does not speak does not
    assertThat(LeanDataStore.supports(config("https://oss-cn-hangzhou.aliyuncs.com", "lean", k))).isTrue();
    assertThat(LeanDataStore.supports(config("https://oss-cn-hangzhou.aliyuncs.com", "lean", k, "sigv1"))).isFalse();
    assertThatThrownBy(() -> config(emu.endpoint(), "lean", k, "data_path=fast"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data_path");
    assertThat(LeanOssClient.isIpOrLocalhost("127.0.0.1")).isTrue();
    assertThat(LeanOssClient.isIpOrLocalhost("localhost")).isTrue();
    assertThat(LeanOssClient.isIpOrLocalhost("oss-cn-hangzhou-internal.aliyuncs.com")).isFalse();
  }

  /** A TCP proxy that closes both sides once {@code cutAfter} reply bytes have passed on a connection. */
  static final class CuttingProxy implements AutoCloseable {
    private final java.net.ServerSocket server = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    volatile long cutAfter = Long.MAX_VALUE;
    /** The first 64 KiB sent to the server on any connection (ISO-8859-1), for request-line checks. */
    final StringBuffer sent = new StringBuffer();

    CuttingProxy(int target) throws IOException {
      Thread.ofVirtual().start(() -> {
        while (!server.isClosed()) {
          try {
            java.net.Socket client = server.accept();
            java.net.Socket up = new java.net.Socket("127.0.0.1", target);
            long limit = cutAfter;
            Thread.ofVirtual().start(() -> pump(client, up, Long.MAX_VALUE, sent));
            Thread.ofVirtual().start(() -> pump(up, client, limit, null));
          } catch (IOException e) {
            return;
          }
        }
      });
    }

    int port() {
      return server.getLocalPort();
    }

    private static void pump(java.net.Socket from, java.net.Socket to, long limit, StringBuffer record) {
      byte[] buf = new byte[16 * 1024];
      long passed = 0;
      try (from; to) {
        InputStream in = from.getInputStream();
        int n;
        while ((n = in.read(buf)) > 0) {
          int k = (int) Math.min(n, limit - passed);
          if (record != null && record.length() < 64 * 1024) {
            record.append(new String(buf, 0, k, java.nio.charset.StandardCharsets.ISO_8859_1));
          }
          to.getOutputStream().write(buf, 0, k);
          passed += k;
          if (passed >= limit) {
            return;
          }
        }
      } catch (IOException e) {
        // one side closed: close both
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
