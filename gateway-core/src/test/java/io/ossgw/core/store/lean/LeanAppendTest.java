package io.ossgw.core.store.lean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.OSS;
import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.util.Crc64;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * AppendObject on the lean client against the emulator (V4 verified): an Appendable object made and grown on the lean
 * path reads back through aliyun-sdk-oss (bytes, type, Content-Type, {@code x-oss-meta-*}, ETag, CRC-64); a wrong
 * position and a Normal object are CONFLICT as on the SDK path; an append whose reply is lost on a reused connection
 * is sent once (the retry layer decides what it did); all without building an SDK client.
 */
class LeanAppendTest extends LeanEmulatorTest {
  LeanAppendTest() {
    super("app");
  }

  @Test
  void anAppendableObjectMadeAndGrownOnTheLeanPathReadsBackThroughTheSdk() throws IOException {
    String key = "logs/a pp+ü.log";
    byte[] first = random(70_000, 1);
    byte[] second = random(5_000, 2);
    emu.counters().reset();
    AppendResult a = store.appendObject(key, 0, ContentSource.ofBytes(first),
        new WriteMeta("text/x-log", Map.of("mode", "33188")));
    assertThat(a.nextPosition()).isEqualTo(first.length);
    assertThat(a.crc64()).isEqualTo(Long.toUnsignedString(Crc64.update(0, first, 0, first.length)));
    AppendResult b = store.appendObject(key, first.length, ContentSource.ofBytes(second),
        new WriteMeta("text/x-log", Map.of("mode", "33188")));
    byte[] all = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, all, first.length, second.length);
    assertThat(b.nextPosition()).isEqualTo(all.length);
    assertThat(b.crc64()).isEqualTo(Long.toUnsignedString(Crc64.update(0, all, 0, all.length)));

    try (var o = sdk.getObject("app", key)) {
      assertThat(o.getObjectContent().readAllBytes()).isEqualTo(all);
    }
    ObjectMetadata md = sdk.getObjectMetadata("app", key);
    assertThat(md.getObjectType()).isEqualTo("Appendable");
    assertThat(md.getContentType()).isEqualTo("text/x-log");
    assertThat(md.getUserMetadata()).containsEntry("mode", "33188");
    assertThat(md.getETag()).isEqualTo(b.etag());
    assertThat(emu.counters().get("AppendObject")).isEqualTo(2);
    assertThat(sdkStore.clientsBuilt()).isZero();
  }

  @Test
  void aWrongPositionOrANormalObjectIsAConflict() {
    String key = "conflict.log";
    store.appendObject(key, 0, ContentSource.ofBytes(new byte[10]), new WriteMeta(null, Map.of()));
    assertThatThrownBy(() -> store.appendObject(key, 4, ContentSource.ofBytes(new byte[3]), new WriteMeta(null, Map.of())))
        .isInstanceOf(StoreException.class).satisfies(e -> {
          assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.CONFLICT);
          assertThat(((StoreException) e).code()).isEqualTo("PositionNotEqualToLength");
        });
    sdk.putObject("app", "normal.bin", new ByteArrayInputStream(new byte[10]));
    assertThatThrownBy(() -> store.appendObject("normal.bin", 10, ContentSource.ofBytes(new byte[3]),
        new WriteMeta(null, Map.of()))).isInstanceOf(StoreException.class).satisfies(e -> {
          assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.CONFLICT);
          assertThat(((StoreException) e).code()).isEqualTo("ObjectNotAppendable");
        });
    assertThat(sdk.getObjectMetadata("app", key).getContentLength()).isEqualTo(10);
  }

  @Test
  void anAppendWhoseReplyIsLostIsNotSentAgainByTheClient() {
    String key = "lost-append.log";
    store.appendObject(key, 0, ContentSource.ofBytes(new byte[100]), new WriteMeta(null, Map.of()));
    emu.counters().reset();
    emu.faults().dropRepliesNext(1, Set.of("AppendObject")); // the connection is a reused one
    assertThatThrownBy(() -> store.appendObject(key, 100, ContentSource.ofBytes(new byte[50]),
        new WriteMeta(null, Map.of()))).isInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreErrorKind.TRANSIENT));
    assertThat(emu.counters().get("AppendObject")).isEqualTo(1);
    assertThat(sdk.getObjectMetadata("app", key).getContentLength()).isEqualTo(150); // carried out by OSS
  }

  @Test
  void metadataValuesThatAreNotAsciiAreAppendedLeanAndOnlyNamesThatAreNotGoThroughTheSdk() throws IOException {
    EngineConfig c = config(emu.endpoint(), "app", new Credentials("ak", "sk"));
    AliyunObjectStore own = new AliyunObjectStore(c);
    try (var s = LeanDataStore.wrap(own, c)) {
      s.appendObject("utf8.log", 0, ContentSource.ofBytes(new byte[] {1, 2}), new WriteMeta(null, Map.of("note", "naïve")));
      assertThat(own.clientsBuilt()).isZero();
      assertThat(sdk.getObjectMetadata("app", "utf8.log").getUserMetadata()).containsEntry("note", "naïve");
      s.appendObject("utf8-name.log", 0, ContentSource.ofBytes(new byte[] {1}), new WriteMeta(null, Map.of("nöte", "x")));
      assertThat(own.clientsBuilt()).isEqualTo(1);
    }
  }
}
