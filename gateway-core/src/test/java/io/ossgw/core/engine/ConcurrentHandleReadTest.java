package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One open handle read by several threads at once, as the kernel's parallel READs of one file arrive (FUSE threads,
 * NFS slots): the reads copy out of the read-ahead concurrently, return the right bytes, and an object replaced in OSS
 * meanwhile never mixes versions (SEMANTICS.md: a change after bytes were returned fails the read with EIO).
 */
class ConcurrentHandleReadTest extends GatewayFixture {
  static final int PIECE = 128 * 1024;
  final List<Engine> engines = new ArrayList<>();
  final ExecutorService threads = Executors.newFixedThreadPool(4);

  @AfterEach
  void closeEngines() {
    threads.shutdown();
    engines.forEach(Engine::close);
  }

  private VirtualFileSystem fs(String... options) {
    Engine e = Engine.start(gw.config("", options));
    engines.add(e);
    return e.fileSystem();
  }

  private static byte[] random(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Reads piece {@code i} (pairs swapped, as the kernel's read-ahead sends them) or returns the failure. */
  private static Object piece(VirtualFileSystem fs, FileHandle h, byte[] out, int i, int size) {
    int at = (i ^ 1) * PIECE >= size ? i * PIECE : (i ^ 1) * PIECE;
    int len = Math.min(PIECE, size - at);
    try {
      return fs.read(h, at, ByteBuffer.wrap(out, at, len));
    } catch (FsException e) {
      return e;
    }
  }

  @Test
  void severalThreadsReadingOneHandleGetTheRightBytes() throws Exception {
    byte[] data = random(6 * 1024 * 1024 + 999, 1);
    gw.sdk.putObject(BUCKET, "par.bin", new ByteArrayInputStream(data));
    VirtualFileSystem fs = fs("direct_read_chunk_size=1");
    FileHandle h = fs.open("/par.bin", OpenFlags.READ_ONLY, USER);
    byte[] out = new byte[data.length];
    try {
      List<Future<Object>> done = new ArrayList<>();
      for (int i = 0; i * PIECE < data.length; i++) {
        int idx = i;
        done.add(threads.submit(() -> piece(fs, h, out, idx, data.length)));
      }
      for (Future<Object> f : done) {
        assertThat(f.get()).isInstanceOf(Integer.class);
      }
    } finally {
      fs.release(h);
    }
    assertThat(out).isEqualTo(data);
  }

  @Test
  void anObjectReplacedWhileThreadsReadItNeverMixesVersions() throws Exception {
    int size = 6 * 1024 * 1024;
    byte[] v1 = random(size, 2);
    byte[] v2 = random(size, 3);
    gw.sdk.putObject(BUCKET, "moving.bin", new ByteArrayInputStream(v1));
    VirtualFileSystem fs = fs("direct_read_chunk_size=1", "direct_read_prefetch_chunks=1");
    FileHandle h = fs.open("/moving.bin", OpenFlags.READ_ONLY, USER);
    byte[] out = new byte[size];
    List<Object> results = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) { // the first 512 KiB from version one
        results.add(piece(fs, h, out, i, size));
      }
      gw.sdk.putObject(BUCKET, "moving.bin", new ByteArrayInputStream(v2));
      List<Future<Object>> done = new ArrayList<>();
      for (int i = 4; i * PIECE < size; i++) {
        int idx = i;
        done.add(threads.submit(() -> piece(fs, h, out, idx, size)));
      }
      for (Future<Object> f : done) {
        results.add(f.get());
      }
    } finally {
      fs.release(h);
    }
    int failed = 0;
    for (int i = 0; i < results.size(); i++) {
      int at = (i ^ 1) * PIECE;
      if (results.get(i) instanceof FsException e) {
        assertThat(e.errno()).isEqualTo(Errno.EIO);
        failed++;
      } else {
        assertThat(Arrays.copyOfRange(out, at, at + PIECE)).as("piece at %d is version one's", at)
            .isEqualTo(Arrays.copyOfRange(v1, at, at + PIECE));
      }
    }
    assertThat(failed).as("reads past the prefetched chunks fail once the ETag no longer matches").isPositive();
    assertThat(TestGateway.readFile(fs, "/moving.bin")).as("a new open reads the new version").isEqualTo(v2);
  }
}
