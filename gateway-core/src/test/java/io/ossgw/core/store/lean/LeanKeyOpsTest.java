package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DeleteObject, DeleteMultipleObjects and CopyObject on the lean client against the emulator (V4 verified, Content-MD5
 * checked on POST ?delete): aliyun-sdk-oss sees the copies with their bytes and metadata and the deleted keys gone,
 * keys that need escaping in a path, a header and XML survive, and the emulator's counters show one request per
 * 1,000 deleted keys.
 */
class LeanKeyOpsTest extends LeanEmulatorTest {
  /** Keys that need percent-encoding, XML escaping, character references and UTF-8. */
  static final List<String> ODD = List.of("odd/a&b<c>d\"e'f.txt", "odd/sp ace+plus%25.bin", "odd/ü/日本.txt",
      "odd/tab\tcr\rlf\n.txt", "odd/q?x=1#frag");

  LeanKeyOpsTest() {
    super("keys");
  }

  void put(String key, byte[] data, Map<String, String> meta) {
    ObjectMetadata md = new ObjectMetadata();
    md.setContentType("text/x-src");
    md.setUserMetadata(meta);
    sdk.putObject("keys", key, new ByteArrayInputStream(data), md);
  }

  byte[] read(String key) throws IOException {
    try (var o = sdk.getObject("keys", key)) {
      return o.getObjectContent().readAllBytes();
    }
  }

  @Test
  void copyKeepsOrReplacesTheMetadataAndTheBytes() throws IOException {
    for (String src : ODD) {
      byte[] data = random(5000, src.hashCode());
      put(src, data, Map.of("mode", "33188", "uid", "7"));
      String kept = "copied/" + src;
      WriteResult w = store.copyObject(src, kept, null);
      assertThat(read(kept)).isEqualTo(data);
      ObjectMetadata md = sdk.getObjectMetadata("keys", kept);
      assertThat(md.getETag()).isEqualTo(w.etag());
      assertThat(md.getContentType()).isEqualTo("text/x-src");
      assertThat(md.getUserMetadata()).containsEntry("mode", "33188").containsEntry("uid", "7");

      String replaced = "replaced/" + src;
      store.copyObject(src, replaced, new WriteMeta("text/x-new", Map.of("mode", "33261")));
      assertThat(read(replaced)).isEqualTo(data);
      md = sdk.getObjectMetadata("keys", replaced);
      assertThat(md.getContentType()).isEqualTo("text/x-new");
      assertThat(md.getUserMetadata()).containsEntry("mode", "33261").doesNotContainKey("uid");
    }
  }

  @Test
  void aCopyOfAMissingSourceIsNotFound() {
    assertThatThrownBy(() -> store.copyObject("no/such", "dst", null)).isInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(((StoreException) e).kind()).hasToString("NOT_FOUND"));
    assertThat(sdk.doesObjectExist("keys", "dst")).isFalse();
  }

  @Test
  void deleteObjectRemovesAndAMissingKeyIsNoError() {
    put("del/one", new byte[] {1}, Map.of());
    emu.counters().reset();
    store.deleteObject("del/one");
    store.deleteObject("del/never-was");
    assertThat(sdk.doesObjectExist("keys", "del/one")).isFalse();
    assertThat(emu.counters().get("DeleteObject")).isEqualTo(2);
  }

  @Test
  void oneDeleteMultipleObjectsPerThousandKeys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 994; i++) {
      keys.add("many/f" + i);
      put("many/f" + i, new byte[] {(byte) i}, Map.of());
    }
    for (String k : ODD) {
      put(k, new byte[] {2}, Map.of());
      keys.add(k);
    }
    keys.add("many/never-was"); // OSS reports a missing key as deleted
    emu.counters().reset();
    assertThat(store.deleteObjects(keys)).isEmpty();
    assertThat(emu.counters().snapshot()).containsEntry("DeleteMultipleObjects", 1L).doesNotContainKey("DeleteObject");
    assertThat(sdk.listObjectsV2("keys", "many/").getKeyCount()).isZero();
    for (String k : ODD) {
      assertThat(sdk.doesObjectExist("keys", k)).as(k).isFalse();
    }
    assertThatThrownBy(() -> store.deleteObjects(java.util.Collections.nCopies(1001, "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFailedBatchDeletesNothingAndSaysSo() {
    put("fail/a", new byte[] {1}, Map.of());
    emu.faults().failNext(2, 500, "InternalError", Set.of("DeleteMultipleObjects"));
    assertThatThrownBy(() -> store.deleteObjects(List.of("fail/a"))).isInstanceOf(StoreException.class);
    assertThat(sdk.doesObjectExist("keys", "fail/a")).isTrue();
  }

  @Test
  void keysXmlCannotCarryGoOneDeleteObjectEach() {
    String ctl = "ctl/\u0001bell";
    put(ctl, new byte[] {1}, Map.of());
    put("ctl/plain", new byte[] {1}, Map.of());
    assertThat(LeanKeyOps.deleteBody(List.of(ctl))).isNull();
    emu.counters().reset();
    assertThat(store.deleteObjects(List.of(ctl, "ctl/plain"))).isEmpty();
    assertThat(emu.counters().get("DeleteObject")).isEqualTo(2);
    assertThat(sdk.doesObjectExist("keys", ctl)).isFalse();
    assertThat(sdk.doesObjectExist("keys", "ctl/plain")).isFalse();
  }

  @Test
  void errorEntriesOfAQuietReplyAreTheKeysNotDeleted() {
    assertThat(LeanKeyOps.errorKeys("<DeleteResult></DeleteResult>")).isEmpty();
    assertThat(LeanKeyOps.errorKeys("<DeleteResult><EncodingType>url</EncodingType><Error><Key>a%2Fb%20c</Key>"
        + "<Code>AccessDenied</Code></Error><Error><Code>X</Code><Key>d</Key></Error></DeleteResult>"))
        .containsExactly("a/b c", "d");
    assertThatThrownBy(() -> LeanKeyOps.errorKeys("<DeleteResult><Error><Code>X</Code></Error></DeleteResult>"))
        .isInstanceOf(StoreException.class);
  }
}
