package io.ossgw.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.store.lean.LeanDataStore;
import io.ossgw.emulator.OssEmulator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Uploads are checked end to end with ossgw's own CRC-64 (the SDK's check is off): a proxy between the SDK and the
 * emulator flips one byte of a request body, as a faulty network or middlebox would, and PutObject, UploadPart and
 * CompleteMultipartUpload must refuse the result; clean uploads of spool ranges and in-memory bodies pass.
 */
class UploadCrcTest {
  static OssEmulator emu;
  static CorruptingProxy proxy;

  @BeforeAll
  static void start() throws IOException {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("crc").credentials("ak", "sk").authEnabled(true)
        .build().start();
    proxy = new CorruptingProxy(URI.create(emu.endpoint()).getPort());
  }

  @AfterAll
  static void stop() throws IOException {
    proxy.close();
    emu.close();
  }

  /** The store over the corrupting proxy: aliyun-sdk-oss alone, or behind the lean data path. */
  static ObjectStore store(boolean lean) {
    EngineConfig c = EngineConfig.fromOptions("crc", "",
        MountOptions.parse(List.of("url=http://127.0.0.1:" + proxy.port(), "retries=1")), new Credentials("ak", "sk"),
        0, 0, null);
    return lean ? LeanDataStore.wrap(new AliyunObjectStore(c), c) : new AliyunObjectStore(c);
  }

  /** A spool file of {@code size} bytes 'A' (the proxy flips the first body byte 'A' it sees to 'B'). */
  static FileChannel spool(Path dir, int size) throws IOException {
    byte[] a = new byte[size];
    Arrays.fill(a, (byte) 'A');
    Path f = Files.write(dir.resolve("spool-" + size), a);
    return FileChannel.open(f, StandardOpenOption.READ);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aCorruptedPutObjectBodyIsRefused(boolean lean, @TempDir Path dir) throws IOException {
    try (ObjectStore s = store(lean); FileChannel ch = spool(dir, 700 * 1024)) {
      WriteResult ok = s.putObject("clean", ContentSource.ofFileRange(ch, 0, ch.size()), new WriteMeta(null, Map.of()));
      assertThat(ok.crc64()).isNotNull();
      proxy.corruptNext.set(true);
      assertThatThrownBy(() -> s.putObject("bad", ContentSource.ofFileRange(ch, 0, ch.size()), new WriteMeta(null, Map.of())))
          .isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.code()).isEqualTo("InconsistentCRC");
            assertThat(e.kind()).isEqualTo(StoreErrorKind.TRANSIENT);
          });
      assertThat(proxy.corruptNext.get()).isFalse();
      // a body in memory is summed as the SDK reads it
      byte[] mem = new byte[5000];
      Arrays.fill(mem, (byte) 'A');
      proxy.corruptNext.set(true);
      assertThatThrownBy(() -> s.putObject("bad-mem", ContentSource.ofBytes(mem), new WriteMeta(null, Map.of())))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aCorruptedPartIsRefusedAndCompleteChecksTheCombinedCrc(boolean lean, @TempDir Path dir) throws IOException {
    int part = 5 * 1024 * 1024 + 12345; // an odd size: several spool chunks and a short last one
    try (ObjectStore s = store(lean); FileChannel ch = spool(dir, 2 * part + 777)) {
      String id = s.initiateMultipartUpload("mp", new WriteMeta(null, Map.of()));
      PartETag p1 = s.uploadPart("mp", id, 1, ContentSource.ofFileRange(ch, 0, part));
      proxy.corruptNext.set(true);
      assertThatThrownBy(() -> s.uploadPart("mp", id, 2, ContentSource.ofFileRange(ch, part, part)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
      PartETag p2 = s.uploadPart("mp", id, 2, ContentSource.ofFileRange(ch, part, part));
      PartETag p3 = s.uploadPart("mp", id, 3, ContentSource.ofFileRange(ch, 2L * part, 777));
      assertThat(p1.crc64()).isNotNull().isEqualTo(p2.crc64());
      // parts listed with a wrong CRC: the object OSS assembled is not the one the parts add up to
      PartETag wrong = new PartETag(3, p3.etag(), p3.size(), p3.crc64() ^ 1);
      assertThatThrownBy(() -> s.completeMultipartUpload("mp", id, List.of(p1, p2, wrong)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
      String id2 = s.initiateMultipartUpload("mp2", new WriteMeta(null, Map.of()));
      PartETag q1 = s.uploadPart("mp2", id2, 1, ContentSource.ofFileRange(ch, 0, part));
      PartETag q2 = s.uploadPart("mp2", id2, 2, ContentSource.ofFileRange(ch, part, part + 777));
      WriteResult done = s.completeMultipartUpload("mp2", id2, List.of(q1, q2));
      assertThat(done.crc64()).isNotNull();
      ByteBuffer last = ByteBuffer.allocate(10);
      s.getObjectRange("mp2", 2L * part + 767, last, null);
      assertThat(last.array()).containsOnly((byte) 'A');
    }
  }

  /**
   * A spool range that carries the CRC its writer computed (a streamed part) goes with sendfile and is checked against
   * that CRC: a byte flipped on the way is refused, and so is a range whose bytes are not the ones that CRC is of.
   */
  @Test
  void aRangeWithItsWritersCrcIsCheckedAgainstThatCrc(@TempDir Path dir) throws IOException {
    int part = 5 * 1024 * 1024 + 12345;
    try (ObjectStore s = store(true); FileChannel ch = spool(dir, 2 * part)) {
      byte[] a = new byte[part];
      Arrays.fill(a, (byte) 'A');
      long crc = io.ossgw.core.util.Crc64.of(a, 0, part);
      String id = s.initiateMultipartUpload("known", new WriteMeta(null, Map.of()));
      PartETag p1 = s.uploadPart("known", id, 1, ContentSource.ofFileRange(ch, 0, part, crc));
      assertThat(p1.crc64()).isEqualTo(crc);
      proxy.corruptNext.set(true);
      assertThatThrownBy(() -> s.uploadPart("known", id, 2, ContentSource.ofFileRange(ch, part, part, crc)))
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
      assertThat(proxy.corruptNext.get()).isFalse();
      assertThatThrownBy(() -> s.uploadPart("known", id, 2, ContentSource.ofFileRange(ch, part, part, crc ^ 1)))
          .as("the bytes sent are not the ones the writer's CRC is of")
          .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo("InconsistentCRC"));
      PartETag p2 = s.uploadPart("known", id, 2, ContentSource.ofFileRange(ch, part, part, crc));
      WriteResult done = s.completeMultipartUpload("known", id, List.of(p1, p2));
      assertThat(done.crc64()).isNotNull();
      ByteBuffer last = ByteBuffer.allocate(10);
      s.getObjectRange("known", 2L * part - 10, last, null);
      assertThat(last.array()).containsOnly((byte) 'A');
    }
  }

  @Test
  void spoolRangesReadInPiecesAndResetStillSumTheRange(@TempDir Path dir) throws IOException {
    byte[] data = new byte[600_000];
    new SplittableRandom(3).nextBytes(data);
    Path f = Files.write(dir.resolve("r"), data);
    try (FileChannel ch = FileChannel.open(f)) {
      var in = (ContentSource.FileRangeInputStream) ContentSource.ofFileRange(ch, 1000, 500_000).openStream();
      byte[] got = new byte[500_000];
      in.mark(0);
      assertThat(in.read(got, 0, 4096)).isEqualTo(4096);
      in.reset();
      int n = 0;
      for (int k; n < got.length && (k = in.read(got, n, Math.min(4096, got.length - n))) > 0; ) {
        n += k;
      }
      assertThat(in.read()).isEqualTo(-1);
      assertThat(got).isEqualTo(Arrays.copyOfRange(data, 1000, 501_000));
      assertThat(in.crc64()).hasValue(io.ossgw.core.util.Crc64.of(data, 1000, 500_000));
      in.close();
      // more streams open at once than there are pooled direct chunks: the rest read through heap chunks
      List<ContentSource.FileRangeInputStream> open = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        var s = (ContentSource.FileRangeInputStream) ContentSource.ofFileRange(ch, i, 100_000 + i).openStream();
        assertThat(s.read()).isEqualTo(data[i] & 0xff);
        open.add(s);
      }
      for (int i = 0; i < open.size(); i++) {
        var s = open.get(i);
        byte[] rest = s.readAllBytes();
        assertThat(rest).isEqualTo(Arrays.copyOfRange(data, i + 1, 100_000 + 2 * i));
        assertThat(s.crc64()).hasValue(io.ossgw.core.util.Crc64.of(data, i, 100_000 + i));
        s.close();
      }
    }
  }

  /** Forwards TCP to the emulator; when armed, flips the first body byte 'A' of the next request to 'B'. */
  static final class CorruptingProxy implements AutoCloseable {
    final AtomicBoolean corruptNext = new AtomicBoolean();
    private final ServerSocket server;
    private final int target;

    CorruptingProxy(int target) throws IOException {
      this.target = target;
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread.ofVirtual().start(this::accept);
    }

    int port() {
      return server.getLocalPort();
    }

    private void accept() {
      try {
        while (true) {
          Socket c = server.accept();
          Socket up = new Socket(InetAddress.getLoopbackAddress(), target);
          Thread.ofVirtual().start(() -> pump(c, up, true));
          Thread.ofVirtual().start(() -> pump(up, c, false));
        }
      } catch (IOException closed) {
        // done
      }
    }

    private void pump(Socket from, Socket to, boolean requests) {
      byte[] buf = new byte[64 * 1024];
      int crlf = 0; // how much of "\r\n\r\n" was just seen
      boolean inBody = false;
      boolean scanning = false; // armed while this connection was idle: its next bytes start a request
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        for (int n; (n = in.read(buf)) > 0; ) {
          if (requests && corruptNext.get()) {
            if (!scanning) {
              scanning = true;
              inBody = false;
              crlf = 0;
            }
            for (int i = 0; i < n; i++) {
              byte b = buf[i];
              if (inBody && b == 'A' && corruptNext.compareAndSet(true, false)) {
                buf[i] = 'B';
                scanning = false;
                break;
              }
              crlf = (b == '\r' && (crlf == 0 || crlf == 2)) || (b == '\n' && (crlf == 1 || crlf == 3)) ? crlf + 1 : 0;
              if (crlf == 4) {
                inBody = true;
              }
            }
          }
          out.write(buf, 0, n);
        }
      } catch (IOException e) {
        // a side closed
      } finally {
        try {
          from.close();
          to.close();
        } catch (IOException ignored) {
          // closing
        }
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
