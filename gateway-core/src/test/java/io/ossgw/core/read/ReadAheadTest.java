package io.ossgw.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Read-ahead against the emulator: the window, its reset, eviction and the global memory budget. */
class ReadAheadTest {
  static final int CHUNK = 256 * 1024;
  static OssEmulator emu;
  static ObjectStore store;
  static byte[] data;
  static final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeAll
  static void start() {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("read-ahead").credentials("ak", "sk").authEnabled(true).build().start();
    EngineConfig c = EngineConfig.fromOptions("read-ahead", "", MountOptions.parse(List.of("url=" + emu.endpoint())),
        new Credentials("ak", "sk"), 0, 0, null);
    store = new AliyunObjectStore(c);
    data = new byte[24 * CHUNK + 1234];
    new Random(3).nextBytes(data);
    store.putObject("obj", ContentSource.ofBytes(data), new WriteMeta(null, null));
  }

  @AfterAll
  static void stop() {
    store.close();
    emu.close();
    executor.shutdown();
  }

  private static byte[] read(ReadAhead ra, long off, int len) {
    ByteBuffer b = ByteBuffer.allocate(len);
    int n = ra.read(off, b);
    return Arrays.copyOf(b.array(), n);
  }

  @Test
  void windowDoublesWhileSequentialAndResetsOnARandomRead() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 8, 1)) {
      List<Integer> windows = new ArrayList<>();
      long off = 0;
      for (int i = 0; i < 6; i++) {
        assertThat(read(ra, off, 64 * 1024)).isEqualTo(Arrays.copyOfRange(data, (int) off, (int) off + 64 * 1024));
        windows.add(ra.window());
        off += 64 * 1024;
      }
      assertThat(windows).containsExactly(1, 2, 4, 8, 8, 8);
      long far = 20L * CHUNK + 17;
      assertThat(read(ra, far, 1000)).isEqualTo(Arrays.copyOfRange(data, (int) far, (int) far + 1000));
      assertThat(ra.window()).isZero();
      assertThat(ra.heldChunks()).isLessThanOrEqualTo(1);
      assertThat(read(ra, far + 1000, 1000)).isEqualTo(Arrays.copyOfRange(data, (int) far + 1000, (int) far + 2000));
      assertThat(ra.window()).as("one sequential read after a random one may be chance").isZero();
      assertThat(read(ra, far + 2000, 1000)).isEqualTo(Arrays.copyOfRange(data, (int) far + 2000, (int) far + 3000));
      assertThat(ra.window()).isEqualTo(1);
    }
  }

  /**
   * A late READ of a deep pipeline (NFS clients keep sixteen 1 MiB READs in flight, served in any order) behind chunks
   * already freed is served with a GET of its own bytes and the stream goes on: before, it reset the window, freed every
   * chunk and fetched them all again (1.28 GiB from OSS for a 1 GiB read, issue 22). The stream then keeps that far
   * behind, so the next late read like it comes from memory.
   */
  @Test
  void aLateReadOfADeepPipelineDoesNotResetTheStream() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 8, 1)) {
      int step = 64 * 1024;
      long off = 0;
      for (; off < 7L * CHUNK; off += step) { // the cursor reaches chunk 6; chunks below 5 are freed
        assertThat(read(ra, off, step)).isEqualTo(Arrays.copyOfRange(data, (int) off, (int) off + step));
      }
      assertThat(ra.window()).isEqualTo(8);
      long fetched = ra.prefetchedChunks();
      int late = 2 * CHUNK + 100;
      assertThat(read(ra, late, step)).isEqualTo(Arrays.copyOfRange(data, late, late + step));
      assertThat(ra.window()).as("a late read keeps the stream").isEqualTo(8);
      assertThat(ra.prefetchedChunks()).as("and nothing is fetched again").isEqualTo(fetched);
      for (; off < 9L * CHUNK; off += step) { // the cursor moves on to chunk 8
        assertThat(read(ra, off, step)).isEqualTo(Arrays.copyOfRange(data, (int) off, (int) off + step));
      }
      assertThat(ra.window()).isEqualTo(8);
      assertThat(ra.heldChunks()).as("more than the window, the cursor and one chunk behind it are kept now")
          .isGreaterThan(8 + 1 + 1);
      int late2 = 4 * CHUNK + 5;
      long before = ra.prefetchedChunks();
      assertThat(read(ra, late2, step)).isEqualTo(Arrays.copyOfRange(data, late2, late2 + step));
      assertThat(ra.window()).isEqualTo(8);
      assertThat(ra.prefetchedChunks()).isEqualTo(before);
    }
  }

  @Test
  void aSmallFileReadInOneGoTakesNoChunk() {
    byte[] small = Arrays.copyOf(data, 128 * 1024 + 3);
    store.putObject("small", ContentSource.ofBytes(small), new WriteMeta(null, null));
    BufferPool pool = new BufferPool(4 * CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "small", small.length, null, 8, 1)) {
      // as NFS and FUSE clients read a small file: one read of (at least) its size, from the start
      assertThat(read(ra, 0, 1 << 20)).isEqualTo(small);
      assertThat(pool.allocated()).as("nothing to read ahead past the end: no chunk buffer").isZero();
      assertThat(ra.heldChunks()).isZero();
      assertThat(ra.prefetchedChunks()).isZero();
    }
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "small", small.length, null, 8, 1)) {
      // read in pieces from the start, it streams as before
      assertThat(read(ra, 0, 64 * 1024)).isEqualTo(Arrays.copyOf(small, 64 * 1024));
      assertThat(read(ra, 64 * 1024, 1 << 20)).isEqualTo(Arrays.copyOfRange(small, 64 * 1024, small.length));
      assertThat(ra.prefetchedChunks()).isEqualTo(1);
    }
  }

  @Test
  void chunksBehindTheCursorAreFreedAndTheEndIsExact() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 4, 1)) {
      ByteBuffer all = ByteBuffer.allocate(data.length + 100);
      long off = 0;
      while (true) {
        ByteBuffer piece = all.slice(all.position(), Math.min(128 * 1024, all.remaining()));
        int n = ra.read(off, piece);
        if (n == 0) {
          break;
        }
        all.position(all.position() + n);
        off += n;
        assertThat(ra.heldChunks()).isLessThanOrEqualTo(4 + 1 + 2);
      }
      assertThat(off).isEqualTo(data.length);
      assertThat(Arrays.copyOf(all.array(), (int) off)).isEqualTo(data);
    }
  }

  @Test
  void thirtyTwoReadersNeverExceedTheBudgetAndReadCorrectly() throws Exception {
    MemoryBudget budget = new MemoryBudget(12L * CHUNK);
    BufferPool pool = new BufferPool(CHUNK, budget);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int r = 0; r < 32; r++) {
      results.add(executor.submit(() -> {
        try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 32, 1)) {
          byte[] out = new byte[data.length];
          long off = 0;
          while (off < data.length) {
            int n = ra.read(off, ByteBuffer.wrap(out, (int) off, (int) Math.min(128 * 1024, data.length - off)));
            if (n == 0) {
              return false;
            }
            off += n;
          }
          return Arrays.equals(out, data);
        }
      }));
    }
    for (Future<Boolean> f : results) {
      assertThat(f.get()).isTrue();
    }
    assertThat(budget.peak()).isLessThanOrEqualTo(budget.capacity());
    assertThat(budget.peak()).isGreaterThan(0);
  }

  @Test
  void aChangedObjectIsAPreconditionFailureNotMixedBytes() {
    store.putObject("changing", ContentSource.ofBytes(data), new WriteMeta(null, null));
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "changing", data.length, null, 0, 0)) {
      read(ra, 0, 1000);
      store.putObject("changing", ContentSource.ofBytes(new byte[data.length]), new WriteMeta(null, null));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(ra, 5000, 1000))
          .isInstanceOfSatisfying(io.ossgw.core.store.StoreException.class,
              e -> assertThat(e.kind()).isEqualTo(io.ossgw.core.store.StoreErrorKind.PRECONDITION_FAILED));
    }
  }

  @Test
  void randomSmallReadsFetchAboutWhatIsAsked() {
    long asked = 0;
    Random r = new Random(11);
    try (ReadAhead ra = new ReadAhead(store, new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK)), executor, "obj", data.length, null, 32, 1)) {
      for (int i = 0; i < 300; i++) {
        long off = (r.nextLong(data.length - 16 * 1024) / 4096) * 4096; // sysbench rndrd: 16 KiB at 4 KiB alignment
        assertThat(read(ra, off, 16 * 1024)).isEqualTo(Arrays.copyOfRange(data, (int) off, (int) off + 16 * 1024));
        asked += 16 * 1024;
      }
      assertThat(ra.prefetchedChunks() * CHUNK).as("bytes read ahead for random reads")
          .isLessThanOrEqualTo(asked / 2);
    }
  }
}
