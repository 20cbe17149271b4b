package io.ossgw.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.vfs.FsException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A staging in memory holds exactly the bytes a spool would: random writes, holes, truncates and reads against a byte
 * array model, in memory, across the spill and in the spool alone; the pool's limits send it to the spool, never to an
 * error.
 */
class StagedFileTest {
  static final int CHUNK = 1024;
  @TempDir Path dir;

  @Test
  void randomOperationsMatchTheModelInMemoryAcrossTheSpillAndInTheSpool() {
    for (int seed = 0; seed < 40; seed++) {
      BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
      long limit = seed % 4 == 0 ? Long.MAX_VALUE : 4L * CHUNK + seed;
      try (StagedFile mem = new StagedFile(dir, 0, pool, limit); StagedFile spool = new StagedFile(dir, 0)) {
        Random r = new Random(seed);
        byte[] model = new byte[0];
        for (int op = 0; op < 60; op++) {
          int kind = r.nextInt(10);
          if (kind < 6) { // mostly appends and overwrites near the end, sometimes a hole
            int off = r.nextBoolean() ? model.length : r.nextInt(model.length + 2 * CHUNK + 1);
            byte[] b = new byte[r.nextInt(3 * CHUNK)];
            r.nextBytes(b);
            mem.write(off, ByteBuffer.wrap(b));
            spool.write(off, ByteBuffer.wrap(b));
            model = Arrays.copyOf(model, Math.max(model.length, off + b.length));
            System.arraycopy(b, 0, model, off, b.length);
          } else if (kind < 8) {
            int size = r.nextInt(model.length + CHUNK + 1);
            mem.truncate(size);
            spool.truncate(size);
            model = Arrays.copyOf(model, size);
          } else {
            int off = model.length == 0 ? 0 : r.nextInt(model.length);
            int len = model.length - off == 0 ? 0 : 1 + r.nextInt(model.length - off);
            ByteBuffer a = ByteBuffer.allocate(len);
            mem.read(off, a, len);
            assertThat(a.array()).isEqualTo(Arrays.copyOfRange(model, off, off + len));
          }
          assertThat(mem.size()).isEqualTo(model.length);
          if (mem.inMemory()) {
            assertThat(mem.valid().covers(0, model.length)).as("nothing to load while in memory").isTrue();
          }
        }
        mem.materializeSize();
        spool.materializeSize();
        assertThat(bytes(mem.content(0, model.length))).isEqualTo(model);
        assertThat(bytes(spool.content(0, model.length))).isEqualTo(model);
        if (model.length > 10) {
          assertThat(bytes(mem.content(3, model.length - 10))).isEqualTo(Arrays.copyOfRange(model, 3, model.length - 7));
        }
        assertThat(mem.dirty().bytes()).isEqualTo(spool.dirty().bytes());
      }
      assertThat(pool.allocated()).isLessThanOrEqualTo(64L * CHUNK);
    }
  }

  @Test
  void aSmallFileStaysInMemoryAndItsBodyIsTheBuffers() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(16L * CHUNK));
    byte[] data = random(3 * CHUNK + 7, 1);
    try (StagedFile f = new StagedFile(dir, 0, pool, 8L * CHUNK)) {
      f.write(0, ByteBuffer.wrap(data));
      assertThat(f.inMemory()).isTrue();
      ContentSource body = f.content(0, data.length);
      assertThat(body).isInstanceOf(ContentSource.Buffers.class);
      assertThat(bytes(body)).isEqualTo(data);
      assertThat(bytes(body)).as("opened twice (a retry) the same bytes").isEqualTo(data);
      assertThat(pool.budget().used()).isEqualTo(4L * CHUNK);
    }
    assertThat(pool.budget().used()).as("idle buffers stay in the pool").isEqualTo(4L * CHUNK);
    try (StagedFile g = new StagedFile(dir, 0, pool, 8L * CHUNK)) {
      g.write(0, ByteBuffer.wrap(data));
      assertThat(pool.budget().used()).as("reused, not allocated again").isEqualTo(4L * CHUNK);
    }
  }

  @Test
  void growingPastTheLimitOrAnEmptyPoolSpillsWithTheSameBytes() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(4L * CHUNK));
    byte[] data = random(6 * CHUNK, 2);
    try (StagedFile a = new StagedFile(dir, 0, pool, 2L * CHUNK); StagedFile b = new StagedFile(dir, 0, pool, 100L * CHUNK)) {
      a.write(0, ByteBuffer.wrap(data, 0, CHUNK));
      assertThat(a.inMemory()).isTrue();
      a.write(CHUNK, ByteBuffer.wrap(data, CHUNK, 5 * CHUNK)); // past its 2-chunk limit
      assertThat(a.inMemory()).isFalse();
      assertThat(bytes(a.content(0, data.length))).isEqualTo(data);
      assertThat(a.content(0, data.length)).isInstanceOf(ContentSource.FileRange.class);

      b.write(0, ByteBuffer.wrap(data)); // 6 chunks from a pool that can allocate 4 (one was a's, given back)
      assertThat(b.inMemory()).isFalse();
      assertThat(bytes(b.content(0, data.length))).isEqualTo(data);
    }
    assertThat(pool.budget().used()).isLessThanOrEqualTo(4L * CHUNK);
  }

  @Test
  void baseBytesAndStreamedPartsGoToTheSpool() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(16L * CHUNK));
    try (StagedFile f = new StagedFile(dir, 100, pool, 8L * CHUNK)) {
      assertThat(f.inMemory()).as("an existing object's staging").isFalse();
    }
    byte[] data = random(2 * CHUNK, 3);
    try (StagedFile f = new StagedFile(dir, 0, pool, 8L * CHUNK)) {
      f.write(0, ByteBuffer.wrap(data));
      ContentSource part = f.spoolContent(0, CHUNK);
      assertThat(f.inMemory()).isFalse();
      assertThat(part).isInstanceOf(ContentSource.FileRange.class);
      assertThat(bytes(part)).isEqualTo(Arrays.copyOf(data, CHUNK));
    }
  }

  @Test
  void aSpoolThatCannotBeCreatedFailsOnlyTheSpill() throws IOException {
    Path notADir = Files.writeString(dir.resolve("file"), "x");
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(16L * CHUNK));
    byte[] data = random(3 * CHUNK, 4);
    try (StagedFile f = new StagedFile(notADir, 0, pool, 4L * CHUNK)) {
      f.write(0, ByteBuffer.wrap(data)); // no spool needed
      assertThatThrownBy(() -> f.write(3 * CHUNK, ByteBuffer.wrap(data))).isInstanceOf(FsException.class);
      assertThat(f.inMemory()).isTrue();
      assertThat(f.size()).as("the failed write changed nothing").isEqualTo(data.length);
      assertThat(bytes(f.content(0, data.length))).isEqualTo(data);
    }
  }

  @Test
  void aMissingSpoolDirectoryIsMadeAtTheFirstSpoolFileAndAgainWhenRemoved() throws IOException {
    Path spool = dir.resolve("spool/nested");
    byte[] data = random(2 * CHUNK, 6);
    for (int round = 0; round < 2; round++) {
      assertThat(spool).doesNotExist();
      try (StagedFile f = new StagedFile(spool, 0)) {
        f.write(0, ByteBuffer.wrap(data));
        assertThat(bytes(f.content(0, data.length))).isEqualTo(data);
      }
      assertThat(spool).isEmptyDirectory(); // the spool file was unlinked at once
      Files.delete(spool); // as a tmp cleaner would
    }
  }

  @Test
  void buffersStreamSupportsMarkAndReset() throws IOException {
    byte[] data = random(3000, 5);
    ContentSource s = ContentSource.ofBuffers(java.util.List.of(ByteBuffer.wrap(data, 0, 1000),
        ByteBuffer.allocateDirect(2000).put(data, 1000, 2000).flip()));
    try (InputStream in = s.openStream()) {
      in.readNBytes(500);
      in.mark(0);
      byte[] rest = in.readAllBytes();
      in.reset();
      assertThat(in.readAllBytes()).isEqualTo(rest).isEqualTo(Arrays.copyOfRange(data, 500, 3000));
    }
    assertThat(s.length()).isEqualTo(3000);
  }

  static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static byte[] bytes(ContentSource s) {
    try (InputStream in = s.openStream()) {
      byte[] b = in.readAllBytes();
      assertThat(b.length).isEqualTo(s.length());
      return b;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
