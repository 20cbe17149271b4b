package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.observe.EngineObserver;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.util.Crc64;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Streamed parts of a file written sequentially carry the CRC-64 of the bytes as they were written (issue 22 item 4:
 * the lean client then sends them from the spool with sendfile, no read-back), and that CRC is always the one of the
 * bytes the part holds: a rewrite of bytes not yet streamed, a hole or a truncate stops it and the parts go out as
 * before; a failed part is sent again with the same CRC. Every object is checked byte for byte against the emulator,
 * whose CRC the lean client compares with the one it sent.
 */
class StreamedPartCrcTest extends GatewayFixture {
  static final int PART = 5 * 1024 * 1024;
  final List<Engine> engines = new ArrayList<>();
  /** The body of every UploadPart attempt, by "key#partNumber" (the last attempt's). */
  final Map<String, ContentSource> bodies = new ConcurrentHashMap<>();
  /** UploadPart attempts, by "key#partNumber". */
  final Map<String, Integer> attempts = new ConcurrentHashMap<>();

  @AfterEach
  void closeEngines() {
    engines.forEach(Engine::close);
  }

  /** The engine with a spy on its store, inside the retries (it sees every attempt); the bytes go to the emulator. */
  private VirtualFileSystem engine() {
    UnaryOperator<ObjectStore> spy = s -> new ForwardingObjectStore(s) {
      @Override
      public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
        bodies.put(key + "#" + partNumber, body);
        attempts.merge(key + "#" + partNumber, 1, Integer::sum);
        return delegate.uploadPart(key, uploadId, partNumber, body);
      }
    };
    Engine e = Engine.start(gw.config("", "multipart_size=5"), EngineObserver.NONE, spy, UnaryOperator.identity());
    engines.add(e);
    return e.fileSystem();
  }

  /** Writes {@code data[from, to)} at its own offsets in writes of {@code piece} bytes (crossing part boundaries). */
  private static void write(VirtualFileSystem fs, FileHandle h, byte[] data, int from, int to, int piece) {
    for (int off = from; off < to; off += piece) {
      fs.write(h, off, ByteBuffer.wrap(data, off, Math.min(piece, to - off)));
    }
  }

  /** Creates {@code path}, runs {@code writes} on its handle, flushes (the upload) and releases it. */
  private static void written(VirtualFileSystem fs, String path, Consumer<FileHandle> writes) {
    FileHandle h = fs.create(path, 0644, OpenFlags.READ_WRITE, false, USER);
    try {
      writes.accept(h);
      fs.flush(h);
    } finally {
      fs.release(h);
    }
  }

  private Long crcSent(String key, int part) {
    ContentSource b = bodies.get(key + "#" + part);
    assertThat(b).as("part %d of %s", part, key).isInstanceOf(ContentSource.FileRange.class);
    return ((ContentSource.FileRange) b).crc64();
  }

  @Test
  void streamedPartsCarryTheCrcOfTheBytesWritten() {
    VirtualFileSystem fs = engine();
    byte[] data = random(3 * PART + 12_345, 1);
    // 100,000-byte writes: some straddle a part boundary
    written(fs, "/seq", h -> write(fs, h, data, 0, data.length, 100_000));
    assertThat(gw.objectBytes("seq")).isEqualTo(data);
    for (int p = 1; p <= 3; p++) { // parts 1-3 were streamed while writing; the tail went up at the flush
      assertThat(crcSent("seq", p)).as("part %d", p).isEqualTo(Crc64.of(data, (p - 1) * PART, PART));
    }
  }

  @Test
  void aRewriteOfBytesNotYetStreamedStopsTheWriteCrcs() {
    VirtualFileSystem fs = engine();
    byte[] data = random(3 * PART + 77, 2);
    written(fs, "/rw", h -> {
      write(fs, h, data, 0, PART + 300_000, 128 * 1024); // part 1 streams
      byte[] patch = random(1000, 3); // behind the written end, past the streamed part: the stream goes on
      fs.write(h, PART + 1000, ByteBuffer.wrap(patch));
      System.arraycopy(patch, 0, data, PART + 1000, patch.length);
      write(fs, h, data, PART + 300_000, data.length, 128 * 1024);
    });
    assertThat(gw.objectBytes("rw")).isEqualTo(data);
    assertThat(crcSent("rw", 1)).isEqualTo(Crc64.of(data, 0, PART));
    assertThat(crcSent("rw", 2)).as("read back and CRC'd at upload time").isNull();
    assertThat(crcSent("rw", 3)).isNull();
  }

  @Test
  void aTruncateBelowTheWrittenEndStopsTheWriteCrcs() {
    VirtualFileSystem fs = engine();
    byte[] data = random(3 * PART, 4);
    written(fs, "/tr", h -> {
      write(fs, h, data, 0, PART + 500_000, 128 * 1024);
      fs.setattr("/tr", SetAttr.size(PART + 100), h, USER); // above the streamed part: the stream survives
      fs.setattr("/tr", SetAttr.size(PART + 500_000), h, USER); // grown again: zeros where bytes were
      Arrays.fill(data, PART + 100, PART + 500_000, (byte) 0);
      write(fs, h, data, PART + 500_000, data.length, 128 * 1024);
    });
    assertThat(gw.objectBytes("tr")).isEqualTo(data);
    assertThat(crcSent("tr", 1)).isEqualTo(Crc64.of(data, 0, PART));
    assertThat(crcSent("tr", 2)).isNull();
  }

  @Test
  void aFailedStreamedPartIsSentAgainWithItsCrc() {
    VirtualFileSystem fs = engine();
    byte[] data = random(2 * PART + 5, 5);
    gw.emu.faults().failNext(1, 500, "InternalError", Set.of("UploadPart")); // the first UploadPart attempt
    written(fs, "/retry", h -> write(fs, h, data, 0, data.length, 256 * 1024));
    gw.emu.faults().clear();
    // parts 1 and 2 streamed (either may be the one that failed, they run at once), the 5-byte tail at the flush
    assertThat(attempts.values().stream().mapToInt(Integer::intValue).sum()).as("3 parts and one retry").isEqualTo(4);
    assertThat(gw.objectBytes("retry")).isEqualTo(data);
    assertThat(crcSent("retry", 1)).isEqualTo(Crc64.of(data, 0, PART));
    assertThat(crcSent("retry", 2)).isEqualTo(Crc64.of(data, PART, PART));
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
