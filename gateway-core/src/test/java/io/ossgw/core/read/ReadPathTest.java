package io.ossgw.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.RetryingObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The read path against the emulator (issue 14 items 3 and 5): the budget shared fairly by files streaming at once
 * (whole-chunk GETs only, no reader starved into per-read GETs), reads across chunk boundaries, random reads inside a
 * stream, one reader used from several threads, and a GET failing mid-stream.
 */
class ReadPathTest {
  static final int CHUNK = 256 * 1024;
  static OssEmulator emu;
  static AliyunObjectStore sdk;
  /** The SDK store behind the engine's retry (1-5 ms backoff here). */
  static ObjectStore retrying;
  static byte[] data;
  static final ExecutorService executor = Executors.newFixedThreadPool(8);
  /** The length asked by every GET made through {@link #store} since the last reset. */
  final Queue<Integer> gets = new ConcurrentLinkedQueue<>();
  /** The emulator's store, every GET's length recorded (the bytes come from the emulator over HTTP). */
  final ObjectStore store = new ForwardingObjectStore(retrying) {
    @Override
    public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
      gets.add(dst.remaining());
      return super.getObjectRange(key, offset, dst, ifMatch);
    }
  };

  @BeforeAll
  static void start() {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket("read-path").credentials("ak", "sk").authEnabled(true)
        .build().start();
    EngineConfig c = EngineConfig.fromOptions("read-path", "", MountOptions.parse(List.of("url=" + emu.endpoint())),
        new Credentials("ak", "sk"), 0, 0, null);
    sdk = new AliyunObjectStore(c);
    retrying = new RetryingObjectStore(sdk, 3, 1, 5, (op, e, n) -> { });
    data = new byte[20 * CHUNK + 777];
    new Random(7).nextBytes(data);
    sdk.putObject("obj", ContentSource.ofBytes(data), new WriteMeta(null, null));
  }

  @AfterAll
  static void stop() {
    sdk.close();
    emu.close();
    executor.shutdown();
  }

  @BeforeEach
  void clearFaults() {
    emu.faults().clear();
  }

  private static byte[] expected(long off, int len) {
    return Arrays.copyOfRange(data, (int) off, (int) Math.min(data.length, off + len));
  }

  /** Reads {@code [from, to)} in order, {@code piece} bytes at a time, checking each; returns {@code to}. */
  private static long readsInOrder(ReadAhead ra, long from, long to, int piece) {
    for (long off = from; off < to; off += piece) {
      assertThat(read(ra, off, piece)).as("bytes at %d", off).isEqualTo(expected(off, piece));
    }
    return to;
  }

  private static byte[] read(ReadAhead ra, long off, int len) {
    ByteBuffer b = ByteBuffer.allocate(len);
    int n = ra.read(off, b);
    return Arrays.copyOf(b.array(), n);
  }

  @Test
  void filesStreamingAtOnceShareTheBudgetFairlyAndFetchWholeChunksOnly() {
    MemoryBudget budget = new MemoryBudget(24L * CHUNK);
    BufferPool pool = new BufferPool(CHUNK, budget);
    ReadAheadShare share = new ReadAheadShare(pool);
    int readers = 4;
    List<ReadAhead> ras = new ArrayList<>();
    for (int r = 0; r < readers; r++) {
      ras.add(new ReadAhead(store, pool, share, executor, "obj", data.length, null, 32, 1));
    }
    int[] maxWindow = new int[readers];
    try {
      // the readers take turns, 128 KiB each, as FUSE requests of N `dd`s arrive interleaved
      for (long off = 0; off < data.length; off += 128 * 1024) {
        for (int r = 0; r < readers; r++) {
          assertThat(read(ras.get(r), off, 128 * 1024)).isEqualTo(expected(off, 128 * 1024));
          maxWindow[r] = Math.max(maxWindow[r], ras.get(r).window());
        }
        assertThat(share.streams()).isEqualTo(readers);
      }
    } finally {
      ras.forEach(ReadAhead::close);
    }
    assertThat(share.streams()).isZero();
    // 24 chunks for 4 readers: each holds its window + the chunk being read + 1 behind
    assertThat(maxWindow).as("every reader gets the same share").containsOnly(24 / readers - 2);
    int tail = data.length % CHUNK;
    assertThat(gets).as("no reader starved into a GET per read: every GET is a whole chunk (or the object's tail)")
        .allMatch(n -> n == CHUNK || n == tail);
    assertThat(gets).hasSize(readers * (data.length / CHUNK + 1));
    assertThat(budget.peak()).isLessThanOrEqualTo(budget.capacity());
  }

  @Test
  void aReaderThatShrankKeepsWhatItFetchedAndTheBudgetHolds() {
    MemoryBudget budget = new MemoryBudget(16L * CHUNK);
    BufferPool pool = new BufferPool(CHUNK, budget);
    ReadAheadShare share = new ReadAheadShare(pool);
    try (ReadAhead first = new ReadAhead(store, pool, share, executor, "obj", data.length, null, 32, 1);
        ReadAhead second = new ReadAhead(store, pool, share, executor, "obj", data.length, null, 32, 1)) {
      long off = readsInOrder(first, 0, 6 * 128 * 1024, 128 * 1024);
      assertThat(first.window()).isEqualTo(16 - 2); // alone: the whole budget less the chunk read and the one behind
      for (long o2 = 0; o2 < data.length; o2 += 128 * 1024, off += 128 * 1024) {
        assertThat(read(second, o2, 128 * 1024)).isEqualTo(expected(o2, 128 * 1024));
        if (off < data.length) {
          assertThat(read(first, off, 128 * 1024)).isEqualTo(expected(off, 128 * 1024));
          assertThat(first.window()).isLessThanOrEqualTo(16 / 2 - 2);
        }
        assertThat(budget.used()).isLessThanOrEqualTo(budget.capacity());
      }
      assertThat(second.window()).isEqualTo(16 / 2 - 2);
    }
    assertThat(budget.peak()).isLessThanOrEqualTo(budget.capacity());
  }

  @Test
  void aReadOutOfOrderInsideTheHeldChunksKeepsTheStream() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 8, 1)) {
      long off = readsInOrder(ra, 0, 4L * CHUNK, 64 * 1024);
      int window = ra.window();
      assertThat(window).isEqualTo(8);
      long ahead = off + 3L * CHUNK + 5; // early by three chunks: more than the slack, inside the window
      assertThat(read(ra, ahead, 64 * 1024)).isEqualTo(expected(ahead, 64 * 1024));
      long behind = off - CHUNK - 7; // late: in the chunk kept behind the cursor
      assertThat(read(ra, behind, 4096)).isEqualTo(expected(behind, 4096));
      assertThat(ra.window()).as("the stream goes on").isEqualTo(window);
      readsInOrder(ra, off, data.length, 64 * 1024);
    }
    int tail = data.length % CHUNK;
    assertThat(gets).as("each chunk fetched once, nothing read twice or directly").allMatch(n -> n == CHUNK || n == tail)
        .hasSize(data.length / CHUNK + 1);
  }

  @Test
  void oddSizedReadsAcrossChunkBoundariesWithRandomReadsInBetween() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    Random r = new Random(13);
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 8, 1)) {
      long off = 0;
      int step = 0;
      while (off < data.length) {
        int len = 100_003 + r.nextInt(300_000); // straddles chunk boundaries, sometimes two of them
        assertThat(read(ra, off, len)).isEqualTo(expected(off, len));
        off += len;
        if (++step % 3 == 0) {
          long far = r.nextLong(data.length - 5000);
          assertThat(read(ra, far, 5000)).as("random read at %d", far).isEqualTo(expected(far, 5000));
        }
      }
      assertThat(read(ra, data.length - 10, 100)).isEqualTo(expected(data.length - 10, 100));
      assertThat(read(ra, data.length, 100)).isEmpty();
    }
  }

  @Test
  void oneReaderServedFromSeveralThreadsInAnyOrder() throws Exception {
    // the kernel sends a file's READs from several FUSE threads at once, and they copy out of the chunks concurrently
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 32, 1)) {
      int piece = 128 * 1024;
      int pieces = (data.length + piece - 1) / piece;
      byte[] out = new byte[data.length];
      ExecutorService fuse = Executors.newFixedThreadPool(4);
      try {
        List<Future<Integer>> done = new ArrayList<>();
        for (int i = 0; i < pieces; i++) {
          int at = (i ^ 1) * piece; // pairs swapped: slightly out of order, as the kernel's parallel read-ahead is
          if (at >= data.length) {
            at = i * piece;
          }
          int len = Math.min(piece, data.length - at);
          int from = at;
          done.add(fuse.submit(() -> ra.read(from, ByteBuffer.wrap(out, from, len))));
        }
        for (Future<Integer> f : done) {
          f.get();
        }
      } finally {
        fuse.shutdown();
      }
      assertThat(out).isEqualTo(data);
      assertThat(ra.prefetchedChunks()).isGreaterThan(10);
    }
  }

  @Test
  void aGetFailingMidStreamIsRetriedAndAPersistentFailureSurfacesThenRecovers() {
    BufferPool pool = new BufferPool(CHUNK, new MemoryBudget(64L * CHUNK));
    try (ReadAhead ra = new ReadAhead(store, pool, executor, "obj", data.length, null, 2, 1)) {
      long off = readsInOrder(ra, 0, 3L * CHUNK, 64 * 1024);
      // one 503 on the next GET: the store's retry hides it
      emu.faults().failNext(1, 503, "ServiceUnavailable", Set.of("GetObject"));
      off = readsInOrder(ra, off, 8L * CHUNK, 64 * 1024);
      // every GET denied: the read fails (the engine turns it into EIO), nothing wrong is returned
      emu.faults().failWith(403, "AccessDenied", 1.0, Set.of("GetObject"));
      long stuck = off;
      assertThatThrownBy(() -> {
        for (long o = stuck; o < data.length; o += 64 * 1024) {
          read(ra, o, 64 * 1024);
        }
      }).isInstanceOf(StoreException.class);
      // once OSS answers again the same reader goes on with the right bytes
      emu.faults().clear();
      readsInOrder(ra, stuck, data.length, 64 * 1024);
    }
  }
}
