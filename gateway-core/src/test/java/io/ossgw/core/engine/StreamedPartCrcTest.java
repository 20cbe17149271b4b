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
import java.util.Collections;
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
  void aRewriteOfBytesNotYetStreamedForgetsTheirCrc() {
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
    assertThat(crcSent("rw", 2)).as("the patch forgot [PART, PART+300,000): read back and CRC'd").isNull();
    assertThat(crcSent("rw", 3)).as("written whole after the patch").isEqualTo(Crc64.of(data, 2 * PART, PART));
  }

  @Test
  void aTruncateBelowTheWrittenEndForgetsTheCrcsPastIt() {
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

  /** Writes {@code data} in pieces of {@code piece} bytes at the piece offsets given by {@code order} (indexes). */
  private static void writeInOrder(VirtualFileSystem fs, FileHandle h, byte[] data, int piece, List<Integer> order) {
    for (int i : order) {
      int off = i * piece;
      fs.write(h, off, ByteBuffer.wrap(data, off, Math.min(piece, data.length - off)));
    }
  }

  /** The piece indexes of {@code n} bytes in order, then shuffled within windows of {@code window} (NFS in flight). */
  private static List<Integer> shuffled(int n, int piece, int window, long seed) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i * piece < n; i++) {
      order.add(i);
    }
    Random r = new Random(seed);
    for (int from = 0; from < order.size(); from += window) {
      Collections.shuffle(order.subList(from, Math.min(order.size(), from + window)), r);
    }
    return order;
  }

  @Test
  void writesOutOfOrderKeepTheirPartsCrcsEvenBeforeOffsetZeroArrives() {
    VirtualFileSystem fs = engine();
    int mib = 1024 * 1024;
    byte[] data = random(4 * PART + 4321, 6);
    List<Integer> order = new ArrayList<>(List.of(1, 0, 3, 2)); // 1 MiB first: the stream starts with the second write
    shuffled(data.length, mib, 16, 7).stream().filter(i -> i > 3).forEach(order::add);
    written(fs, "/ooo", h -> writeInOrder(fs, h, data, mib, order));
    assertThat(gw.objectBytes("ooo")).isEqualTo(data);
    for (int p = 1; p <= 4; p++) {
      assertThat(crcSent("ooo", p)).as("part %d", p).isEqualTo(Crc64.of(data, (p - 1) * PART, PART));
    }

    // 100,000-byte writes shuffled across part boundaries, windows of 64
    byte[] more = random(3 * PART + 1, 8);
    written(fs, "/ooo2", h -> writeInOrder(fs, h, more, 100_000, shuffled(more.length, 100_000, 64, 9)));
    assertThat(gw.objectBytes("ooo2")).isEqualTo(more);
    for (int p = 1; p <= 3; p++) {
      assertThat(crcSent("ooo2", p)).as("part %d", p).isEqualTo(Crc64.of(more, (p - 1) * PART, PART));
    }
  }

  @Test
  void aRewriteOrTruncateInsideAPartNotYetWholeNeverGivesAWrongCrc() {
    VirtualFileSystem fs = engine();
    int piece = 256 * 1024;
    byte[] data = random(4 * PART + 99, 10);
    written(fs, "/mixed", h -> {
      write(fs, h, data, PART, PART + PART / 2, piece); // half of part 2, before offset 0
      byte[] patch = random(3000, 11); // over that half's end: part 2 is only whole again once rewritten
      fs.write(h, PART + PART / 2 - 1000, ByteBuffer.wrap(patch));
      System.arraycopy(patch, 0, data, PART + PART / 2 - 1000, patch.length);
      write(fs, h, data, 2 * PART + 1000, 2 * PART + 3000, 1000); // part 3's start, then a truncate inside it
      fs.setattr("/mixed", SetAttr.size(2 * PART + 2000), h, USER);
      fs.setattr("/mixed", SetAttr.size(2 * PART + 3000), h, USER);
      Arrays.fill(data, 2 * PART + 2000, 2 * PART + 3000, (byte) 0);
      for (int off = 4 * PART - piece; off >= 3 * PART; off -= piece) { // part 4 backwards, untouched later
        fs.write(h, off, ByteBuffer.wrap(data, off, piece));
      }
      write(fs, h, data, PART + PART / 2 + 2000, 2 * PART, piece); // part 2's second half
      write(fs, h, data, 2 * PART + 3000, 3 * PART, piece);
      write(fs, h, data, 4 * PART, data.length, piece);
      write(fs, h, data, 2 * PART, 2 * PART + 1000, 1000);
      write(fs, h, data, 0, PART, piece); // the stream starts: parts 1-3 go out
    });
    assertThat(gw.objectBytes("mixed")).isEqualTo(data);
    assertThat(crcSent("mixed", 1)).isEqualTo(Crc64.of(data, 0, PART));
    assertThat(crcSent("mixed", 2)).as("its first half was forgotten by the patch").isNull();
    assertThat(crcSent("mixed", 3)).as("[2 PART+1000, +2000) was forgotten by the truncate").isNull();
    assertThat(crcSent("mixed", 4)).isEqualTo(Crc64.of(data, 3 * PART, PART));
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
