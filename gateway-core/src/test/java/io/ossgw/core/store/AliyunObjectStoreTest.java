package io.ossgw.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.engine.EngineException;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.store.lean.LeanDataStore;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The ObjectStore over aliyun-sdk-oss, against the emulator, with V4 and V1 signatures; the store-level tests run
 * twice, with the SDK alone and behind the lean data path ({@link LeanDataStore}: PutObject, UploadPart and ranged
 * GetObject over ossgw's own HTTP client), which must behave the same.
 */
class AliyunObjectStoreTest {
  static OssEmulator emu;

  @BeforeAll
  static void start() {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("store-test").credentials("ak", "sk").authEnabled(true)
        .build().start();
  }

  @AfterAll
  static void stop() {
    emu.close();
  }

  static EngineConfig config(String bucket, String secret, String... opts) {
    List<String> o = new ArrayList<>(List.of("url=" + emu.endpoint(), "retries=3"));
    o.addAll(List.of(opts));
    return EngineConfig.fromOptions(bucket, "", MountOptions.parse(o), new Credentials("ak", secret), 0, 0, null);
  }

  /** The store as the engine builds it: behind the lean data path when {@code lean} (and the config allows it). */
  static ObjectStore open(EngineConfig config, boolean lean) {
    ObjectStore sdk = new AliyunObjectStore(config);
    return lean ? LeanDataStore.wrap(sdk, config) : sdk;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @CsvSource({"sigv4,false", "sigv1,false", "sigv4,true"})
  void roundTripsWithBothSignatures(String sig, boolean lean) {
    try (ObjectStore s = open(config("store-test", "sk", sig), lean)) {
      String key = sig + (lean ? "-lean" : "") + "/dir with space/ü+%.txt";
      WriteResult w = s.putObject(key, ContentSource.ofBytes(utf8("0123456789")), new WriteMeta("text/plain", Map.of("mode", "33188")));
      assertThat(w.etag()).doesNotContain("\"").isNotBlank();
      ObjectInfo info = s.headObject(key);
      assertThat(info.size()).isEqualTo(10);
      assertThat(info.etag()).isEqualTo(w.etag());
      assertThat(info.userMeta()).containsEntry("mode", "33188");
      assertThat(info.contentType()).isEqualTo("text/plain");
      ByteBuffer direct = ByteBuffer.allocateDirect(3);
      RangeRead r = s.getObjectRange(key, 7, direct, w.etag());
      assertThat(r.bytesRead()).isEqualTo(3);
      assertThat(r.objectSize()).isEqualTo(10);
      // the GET's headers tell what a HEAD would (the object's size, not the range's)
      assertThat(r.object()).isEqualTo(info);
      assertThat(StandardCharsets.UTF_8.decode(direct.flip()).toString()).isEqualTo("789");
      assertThat(s.getObjectRange(key, 8, ByteBuffer.allocate(100), null).bytesRead()).isEqualTo(2);
      assertThat(s.getObjectRange(key, 10, ByteBuffer.allocate(5), null).bytesRead()).isZero();
      String top = sig + (lean ? "-lean" : "") + "/";
      ListPage page = s.listObjectsV2(top, "/", null, null, 10);
      assertThat(page.commonPrefixes()).containsExactly(top + "dir with space/");
      ListPage inner = s.listObjectsV2(top + "dir with space/", "/", null, null, 10);
      assertThat(inner.objects()).extracting(ListedObject::key).containsExactly(key);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void ifMatchDetectsAChangedObject(boolean lean) {
    try (ObjectStore s = open(config("store-test", "sk"), lean)) {
      s.putObject("im", ContentSource.ofBytes(utf8("one")), new WriteMeta(null, null));
      assertThatThrownBy(() -> s.getObjectRange("im", 0, ByteBuffer.allocate(3), "0123456789ABCDEF0123456789ABCDEF"))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.PRECONDITION_FAILED));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void listingPagesAndDecodesKeys(boolean lean) {
    try (ObjectStore s = open(config("store-test", "sk"), lean)) {
      for (int i = 0; i < 7; i++) {
        s.putObject("page/k%+ " + i, ContentSource.ofBytes(utf8("x")), new WriteMeta(null, null));
      }
      List<String> keys = new ArrayList<>();
      String token = null;
      int pages = 0;
      do {
        ListPage p = s.listObjectsV2("page/", "/", token, null, 3);
        p.objects().forEach(o -> keys.add(o.key()));
        token = p.nextContinuationToken();
        pages++;
      } while (token != null);
      assertThat(pages).isEqualTo(3);
      assertThat(keys).hasSize(7).allSatisfy(k -> assertThat(k).startsWith("page/k%+ "));
    }
  }

  /** Keys that test the listing's decoding and the request's encoding: XML-special, URL-special, control, long. */
  static final List<String> NASTY = List.of("nasty/with space", "nasty/ünï-çødé 日本", "nasty/100%", "nasty/a+b",
      "nasty/a&b", "nasty/<tag>", "nasty/line\nbreak", "nasty/quote\"'", "nasty/sub dir/inner",
      "nasty/sub+dir/x", "nasty/" + "k".repeat(1017));

  /**
   * The lean HeadObject and ListObjectsV2 (issue 14) give what the SDK path gives for the same objects: every page of
   * a paged listing (with and without a delimiter, and after start-after), and every HEAD (metadata, content type,
   * appendable objects' next position).
   */
  @Test
  void bothPathsListAndHeadAlike() {
    EngineConfig config = config("store-test", "sk");
    try (ObjectStore sdk = open(config, false); ObjectStore lean = open(config, true)) {
      assertThat(lean).isInstanceOf(LeanDataStore.class);
      for (String k : NASTY) {
        sdk.putObject(k, ContentSource.ofBytes(utf8(k)), new WriteMeta("text/x-test", Map.of("mode", "33188", "mtime", "1764000000")));
      }
      // user metadata the SDK path may write (not plain ASCII): both paths must read it back alike
      sdk.putObject("nasty/meta", ContentSource.ofBytes(utf8("m")), new WriteMeta("text/x-test",
          Map.of("mode", "33188", "mtime", "1764000000", "Note", "ünï çødé")));
      sdk.deleteObject("nasty/ap");
      sdk.appendObject("nasty/ap", 0, ContentSource.ofBytes(utf8("abc")), new WriteMeta(null, Map.of("uid", "7")));
      for (String delimiter : new String[] {null, "/"}) {
        for (int maxKeys : new int[] {1, 3, 1000}) {
          List<ListPage> viaSdk = pages(sdk, "nasty/", delimiter, null, maxKeys);
          assertThat(pages(lean, "nasty/", delimiter, null, maxKeys)).isEqualTo(viaSdk);
          assertThat(pages(lean, "nasty/", delimiter, "nasty/a+b", maxKeys))
              .isEqualTo(pages(sdk, "nasty/", delimiter, "nasty/a+b", maxKeys));
        }
      }
      List<ListPage> all = pages(lean, "nasty/", null, null, 1000);
      assertThat(all).hasSize(1);
      assertThat(all.getFirst().objects()).extracting(ListedObject::key).containsAll(NASTY).contains("nasty/ap");
      assertThat(all.getFirst().objects()).allSatisfy(o -> {
        assertThat(o.lastModified()).isNotNull();
        assertThat(o.etag()).doesNotContain("\"").isNotBlank();
      });
      assertThat(pages(lean, "nasty/", "/", null, 1000).getFirst().commonPrefixes())
          .containsExactly("nasty/sub dir/", "nasty/sub+dir/");
      for (String k : NASTY) {
        ObjectInfo info = lean.headObject(k);
        assertThat(info).isEqualTo(sdk.headObject(k));
        assertThat(info.size()).isEqualTo(utf8(k).length);
        assertThat(info.userMeta()).containsEntry("mode", "33188").containsEntry("mtime", "1764000000");
        assertThat(info.contentType()).isEqualTo("text/x-test");
      }
      ObjectInfo meta = lean.headObject("nasty/meta");
      assertThat(meta).isEqualTo(sdk.headObject("nasty/meta"));
      assertThat(meta.userMeta()).containsEntry("note", "ünï çødé");
      ObjectInfo ap = lean.headObject("nasty/ap");
      assertThat(ap).isEqualTo(sdk.headObject("nasty/ap"));
      assertThat(ap.appendable()).isTrue();
      assertThat(ap.nextAppendPosition()).isEqualTo(3);
      ListPage empty = lean.listObjectsV2("nothing-here/", "/", null, null, 1000);
      assertThat(empty).isEqualTo(sdk.listObjectsV2("nothing-here/", "/", null, null, 1000));
      assertThat(empty.objects()).isEmpty();
      assertThat(empty.truncated()).isFalse();
    }
  }

  /** Every page of a listing, following the continuation token. */
  static List<ListPage> pages(ObjectStore s, String prefix, String delimiter, String startAfter, int maxKeys) {
    List<ListPage> out = new ArrayList<>();
    String token = null;
    do {
      ListPage p = s.listObjectsV2(prefix, delimiter, token, token == null ? startAfter : null, maxKeys);
      out.add(p);
      token = p.nextContinuationToken();
      assertThat(out).hasSizeLessThan(100);
    } while (token != null);
    return out;
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void listingErrorsKeepTheirKind(boolean lean) {
    try (ObjectStore wrong = open(config("store-test", "wrong-secret"), lean)) {
      assertThatThrownBy(() -> wrong.listObjectsV2("", "/", null, null, 10))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.ACCESS_DENIED);
            assertThat(e.code()).isEqualTo("SignatureDoesNotMatch");
          });
    }
    try (ObjectStore missing = open(config("no-such-bucket", "sk"), lean)) {
      assertThatThrownBy(() -> missing.listObjectsV2("", "/", null, null, 10))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.NO_SUCH_BUCKET);
            assertThat(e.code()).isEqualTo("NoSuchBucket");
          });
    }
    try (ObjectStore s = open(config("store-test", "sk"), lean)) {
      assertThatThrownBy(() -> s.headObject("no/such/key"))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.NOT_FOUND);
            assertThat(e.code()).isEqualTo("NoSuchKey");
          });
      assertThatThrownBy(() -> s.listObjectsV2("", "/", "not a token!", null, 10))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.INVALID_REQUEST));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void multipartCopyAppendAndDelete(boolean lean) {
    try (ObjectStore s = open(config("store-test", "sk"), lean)) {
      s.deleteObject("ap"); // the other parameterization's appendable object
      byte[] part1 = new byte[150 * 1024];
      String id = s.initiateMultipartUpload("mp", new WriteMeta(null, Map.of("mode", "33188")));
      PartETag p1 = s.uploadPart("mp", id, 1, ContentSource.ofBytes(part1));
      PartETag p2 = s.uploadPart("mp", id, 2, ContentSource.ofBytes(utf8("tail")));
      WriteResult done = s.completeMultipartUpload("mp", id, List.of(p1, p2));
      assertThat(done.etag()).endsWith("-2");
      assertThat(s.headObject("mp").size()).isEqualTo(150 * 1024 + 4);
      String id2 = s.initiateMultipartUpload("mp-copy", new WriteMeta(null, null));
      PartETag c1 = s.uploadPartCopy("mp", 0, 150 * 1024, "mp-copy", id2, 1);
      PartETag c2 = s.uploadPartCopy("mp", 150 * 1024, 4, "mp-copy", id2, 2);
      s.completeMultipartUpload("mp-copy", id2, List.of(c1, c2));
      ByteBuffer tail = ByteBuffer.allocate(4);
      s.getObjectRange("mp-copy", 150 * 1024, tail, null);
      assertThat(tail.array()).isEqualTo(utf8("tail"));
      s.copyObject("mp", "mp2", null);
      assertThat(s.headObject("mp2").userMeta()).containsEntry("mode", "33188");
      assertThat(s.appendObject("ap", 0, ContentSource.ofBytes(utf8("abc")), new WriteMeta(null, null)).nextPosition()).isEqualTo(3);
      assertThat(s.appendObject("ap", 3, ContentSource.ofBytes(utf8("defg")), new WriteMeta(null, null))
          .nextPosition()).isEqualTo(7);
      assertThatThrownBy(() -> s.appendObject("ap", 3, ContentSource.ofBytes(utf8("x")), new WriteMeta(null, null)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("PositionNotEqualToLength"));
      assertThat(s.deleteObjects(List.of("mp", "mp2", "never-existed"))).isEmpty();
      s.deleteObject("never-existed");
      assertThatThrownBy(() -> s.headObject("mp"))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.isNotFound()).isTrue());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void errorsKeepTheirKind(boolean lean) {
    try (ObjectStore wrong = open(config("store-test", "wrong-secret"), lean)) {
      assertThatThrownBy(() -> wrong.headObject("x"))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreErrorKind.ACCESS_DENIED);
            assertThat(e.code()).isEqualTo("SignatureDoesNotMatch");
            assertThat(e.getMessage()).doesNotContain("wrong-secret");
          });
    }
    try (ObjectStore missing = open(config("no-such-bucket", "sk"), lean)) {
      assertThatThrownBy(() -> missing.headObject("x"))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.NO_SUCH_BUCKET));
    }
    emu.faults().failWith(503, "SlowDown", 1.0, Set.of("HeadObject"));
    try (ObjectStore s = open(config("store-test", "sk"), lean)) {
      assertThatThrownBy(() -> s.headObject("x"))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT));
    } finally {
      emu.faults().clear();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void retriesTransientErrorsThenSucceeds(boolean lean) {
    List<String> retried = new ArrayList<>();
    try (ObjectStore s = new RetryingObjectStore(open(config("store-test", "sk"), lean), 3, 1, 10,
        (op, e, n) -> retried.add(op + "#" + n))) {
      s.putObject("rt", ContentSource.ofBytes(utf8("x")), new WriteMeta(null, null));
      emu.faults().failNext(2, 500, "InternalError", Set.of("HeadObject"));
      assertThat(s.headObject("rt").size()).isEqualTo(1);
      assertThat(retried).containsExactly("HeadObject#1", "HeadObject#2");
      emu.faults().failNext(1, 503, "SlowDown", Set.of("PutObject"));
      s.putObject("rt2", ContentSource.ofBytes(utf8("body")), new WriteMeta(null, null));
      assertThat(s.headObject("rt2").size()).isEqualTo(4);
      emu.faults().failNext(1, 500, "InternalError", Set.of("GetObject"));
      ByteBuffer got = ByteBuffer.allocate(4);
      assertThat(s.getObjectRange("rt2", 0, got, null).bytesRead()).isEqualTo(4);
      assertThat(retried).containsExactly("HeadObject#1", "HeadObject#2", "PutObject#1", "GetObject#1");
    } finally {
      emu.faults().clear();
    }
  }

  @Test
  void engineStartExplainsBadCredentialsAndMissingBuckets() {
    assertThatThrownBy(() -> Engine.start(config("store-test", "wrong")))
        .isInstanceOf(EngineException.class).hasMessageContaining("denied").hasMessageContaining("SignatureDoesNotMatch");
    assertThatThrownBy(() -> Engine.start(config("absent-bucket", "sk")))
        .isInstanceOf(EngineException.class).hasMessageContaining("does not exist");
  }
}
