package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.writeAt;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Files written through the engine with staging in memory (issue 14): every size around the 128 KiB chunk and the
 * part lands in OSS byte for byte (the lean client checks each body's CRC-64 against OSS's); a small file needs no
 * spool at all; reads while open, truncates, random writes after sequential ones, a failed upload retried, an
 * exhausted pool and 128 writers at once give the same bytes as the spool, within the memory budget.
 */
class WriteStagingTest extends GatewayFixture {
  static final int CHUNK = Engine.WRITE_CHUNK;
  static final int PART = 5 * 1024 * 1024;
  final List<Engine> engines = new ArrayList<>();

  /** Runs before the fixture closes the gateway. */
  @AfterEach
  void closeEngines() {
    engines.forEach(Engine::close);
  }

  private Engine engine(String... options) {
    List<String> o = new ArrayList<>(List.of("multipart_size=5"));
    o.addAll(List.of(options));
    Engine e = Engine.start(gw.config("", o.toArray(String[]::new)));
    engines.add(e);
    return e;
  }

  @Test
  void everySizeAroundChunkAndPartLandsWhole() {
    VirtualFileSystem fs = engine().fileSystem();
    int[] sizes = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, PART - 1, PART, PART + 1, 2 * PART + 3};
    for (int size : sizes) {
      byte[] data = random(size, size);
      writeFile(fs, "/s" + size, data);
      assertThat(gw.objectBytes("s" + size)).as("size %d", size).isEqualTo(data);
    }
  }

  @Test
  void theSdkDataPathSendsTheBuffersToo() {
    VirtualFileSystem fs = engine("data_path=sdk").fileSystem();
    for (int size : new int[] {1, CHUNK + 1, 3 * CHUNK - 1}) {
      byte[] data = random(size, size + 7);
      writeFile(fs, "/sdk" + size, data);
      assertThat(gw.objectBytes("sdk" + size)).as("size %d", size).isEqualTo(data);
    }
  }

  @Test
  void aSmallFileNeedsNoSpool() throws Exception {
    Path notADir = Files.writeString(state.resolve("not-a-dir"), "x"); // tmpdir= a file: no spool can be created there
    VirtualFileSystem fs = engine("tmpdir=" + notADir).fileSystem();
    byte[] small = random(3 * CHUNK + 5, 1);
    writeFile(fs, "/small", small);
    assertThat(gw.objectBytes("small")).isEqualTo(small);
    byte[] big = random(PART + 1, 2);
    assertThatThrownBy(() -> writeFile(fs, "/big", big)).as("a file past the bound needs the spool")
        .isInstanceOf(FsException.class);
  }

  @Test
  void readsWhileOpenTruncatesAndRandomWritesSeeTheStagedBytes() {
    VirtualFileSystem fs = engine().fileSystem();
    byte[] model = random(3 * CHUNK, 3);
    FileHandle h = fs.create("/r", 0644, OpenFlags.READ_WRITE, false, USER);
    try {
      writeAt(fs, h, 0, model);
      assertThat(read(fs, h, 0, model.length)).isEqualTo(model);
      byte[] patch = random(1000, 4);
      fs.write(h, 100, ByteBuffer.wrap(patch)); // random write after sequential ones
      System.arraycopy(patch, 0, model, 100, patch.length);
      fs.flush(h);
      assertThat(gw.objectBytes("r")).isEqualTo(model);
      fs.setattr("/r", SetAttr.size(CHUNK + 17), h, USER); // truncate mid-stream, then grow with a hole
      model = Arrays.copyOf(model, CHUNK + 17);
      byte[] tail = random(CHUNK, 5);
      fs.write(h, 2L * CHUNK, ByteBuffer.wrap(tail));
      model = Arrays.copyOf(model, 3 * CHUNK);
      System.arraycopy(tail, 0, model, 2 * CHUNK, CHUNK);
      assertThat(read(fs, h, 0, model.length)).isEqualTo(model);
      fs.flush(h);
    } finally {
      fs.release(h);
    }
    assertThat(gw.objectBytes("r")).isEqualTo(model);
    assertThat(readFile(fs, "/r")).isEqualTo(model);
  }

  @Test
  void aFailedUploadIsRetriedWithTheSameBytes() {
    VirtualFileSystem fs = engine().fileSystem();
    byte[] data = random(2 * CHUNK + 9, 6);
    FileHandle h = fs.create("/f", 0644, OpenFlags.READ_WRITE, false, USER);
    try {
      writeAt(fs, h, 0, data);
      gw.emu.faults().failNext(1000, 500, "InternalError", Set.of("PutObject"));
      assertThatThrownBy(() -> fs.flush(h)).isInstanceOf(FsException.class);
      gw.emu.faults().clear();
      gw.emu.faults().failNext(1, 500, "InternalError", Set.of("PutObject")); // retried inside the store
      fs.flush(h);
    } finally {
      fs.release(h);
    }
    assertThat(gw.objectBytes("f")).isEqualTo(data);
  }

  @Test
  void aHundredTwentyEightWritersStayWithinTheBudgetAndFallBackToTheSpool() throws Exception {
    Engine e = engine("memory_limit=128"); // budget 32 MiB, write staging 8 MiB, 2 MiB a file
    VirtualFileSystem fs = e.fileSystem();
    MemoryBudget budget = e.memoryBudget();
    int size = 1024 * 1024 + 3;
    ExecutorService pool = Executors.newFixedThreadPool(128);
    try {
      List<Future<byte[]>> done = new ArrayList<>();
      for (int i = 0; i < 128; i++) {
        int n = i;
        done.add(pool.submit(() -> {
          byte[] d = random(size, 100 + n);
          writeFile(fs, "/w" + n, d);
          return d;
        }));
      }
      for (int i = 0; i < 128; i++) {
        byte[] written = done.get(i).get();
        assertThat(gw.objectBytes("w" + i)).isEqualTo(written);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(budget.peak()).isPositive().isLessThanOrEqualTo(budget.capacity() / 4);
  }

  private static byte[] read(VirtualFileSystem fs, FileHandle h, long off, int len) {
    ByteBuffer b = ByteBuffer.allocate(len);
    while (b.hasRemaining()) {
      int n = fs.read(h, off + b.position(), b.slice());
      if (n <= 0) {
        break;
      }
      b.position(b.position() + n);
    }
    return Arrays.copyOf(b.array(), b.position());
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
