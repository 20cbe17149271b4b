package io.ossgw.core.read;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import java.nio.ByteBuffer;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Sequential read-ahead of one open file into pooled off-heap chunks (ossfs {@code direct_read}, reference/
 * ossfs-compat.md §3.7): each chunk is one ranged GET; while reads stay sequential the window of chunks fetched ahead
 * doubles (1, 2, 4 ... up to {@code maxWindow}), a read elsewhere resets it to 0 and is served by a ranged GET of just
 * the bytes asked for, as are reads until two in a row are sequential again (a read from offset 0 starts at once);
 * chunks further than {@code backwardChunks} behind the cursor or beyond the window are freed.
 * Buffers come from the global {@link BufferPool}; the files streaming at once split its budget through a
 * {@link ReadAheadShare} (each window shrinks as more files stream); when the budget is spent anyway, reads go straight
 * to ranged GETs. A read whose chunk is already fetched copies it without any hand-off; one whose chunk is in flight
 * waits once for that GET. No allocation per read once the window is up: chunks are copied with absolute bulk puts.
 *
 * <p>The first GET pins the object's ETag and every later GET sends {@code If-Match}, so one open never mixes bytes of
 * two versions of an object: a change shows up as {@link StoreException} PRECONDITION_FAILED.
 *
 * <p>Thread-safe: one instance per open handle, read by several FUSE or NFS threads at once. The window bookkeeping
 * is under the instance's lock; the wait for a chunk's GET and the copy out of it are not, so concurrent reads of one
 * file copy in parallel instead of queueing behind the one that waits (chunks are pinned while copied from).
 */
public final class ReadAhead implements AutoCloseable {
  private final ObjectStore store;
  private final BufferPool pool;
  /**
   * Bytes between the end of the last read and the start of the next within which the next is sequential, or four
   * requests' worth when that is more (NFS clients and smbd send several 1 MiB READs at once, served out of order).
   */
  static final long SEQUENTIAL_SLACK = 512 * 1024;

  private final Executor executor;
  private final String key;
  private final long size;
  private final long chunkSize;
  private final int maxWindow;
  private final int backwardChunks;
  private final ReadAheadShare share;
  private static final int DIRECT = 0;
  private static final int STREAM = 1;
  private static final int OUT_OF_ORDER = 2;
  private final TreeMap<Long, Chunk> chunks = new TreeMap<>();
  /** Every chunk from the read cursor's to this one is held (or being fetched): schedule() starts after it. */
  private long scheduledThrough = -1;
  private volatile String etag;
  private volatile ObjectInfo seen;
  private long nextExpected;
  private int streak;
  private int window;
  private long prefetchedChunks;
  /** The chunk of the last read that moved the stream on: chunks are freed relative to it. */
  private long cursor;
  /**
   * Chunks behind the cursor kept for late reads: {@code backwardChunks}, grown to the farthest a late read of this
   * stream has come (at most {@link #maxLag}), so the next one like it is served from memory.
   */
  private int lag;
  private boolean closed;

  /**
   * @param key the object
   * @param size the object's size when opened (reads stop there)
   * @param etag the ETag to pin (If-Match), or null to pin the one the first GET returns
   * @param maxWindow {@code direct_read_prefetch_chunks}; 0 turns read-ahead off
   * @param backwardChunks {@code direct_read_backward_chunks}
   */
  public ReadAhead(ObjectStore store, BufferPool pool, Executor executor, String key, long size, String etag,
      int maxWindow, int backwardChunks) {
    this(store, pool, new ReadAheadShare(pool), executor, key, size, etag, maxWindow, backwardChunks);
  }

  /**
   * As {@link #ReadAhead(ObjectStore, BufferPool, Executor, String, long, String, int, int)}, the window bounded by
   * {@code share} (one per pool: the readers of all open files).
   */
  public ReadAhead(ObjectStore store, BufferPool pool, ReadAheadShare share, Executor executor, String key, long size,
      String etag, int maxWindow, int backwardChunks) {
    this.share = share;
    this.store = store;
    this.pool = pool;
    this.executor = executor;
    this.key = key;
    this.size = size;
    this.etag = etag;
    this.chunkSize = pool.bufferSize();
    this.maxWindow = maxWindow;
    this.backwardChunks = backwardChunks;
    this.lag = backwardChunks;
  }

  /**
   * Most chunks kept behind the cursor for late reads: half the largest window (16 MiB with the defaults, sixteen 1 MiB
   * NFS READs in flight), at least {@code backwardChunks}.
   */
  private int maxLag() {
    return Math.max(backwardChunks, maxWindow / 2);
  }

  /** The object key this reader reads (fixed for its life). */
  public String key() {
    return key;
  }

  /** The current read-ahead window in chunks (0 after a random read). */
  public synchronized int window() {
    return window;
  }

  /** Chunks fetched ahead so far (for tests and metrics). */
  public synchronized long prefetchedChunks() {
    return prefetchedChunks;
  }

  /** True when no chunk is held and no stream has started. */
  private synchronized boolean idle() {
    return chunks.isEmpty() && window == 0 && streak == 0;
  }

  /** Chunks held now. */
  public synchronized int heldChunks() {
    return chunks.size();
  }

  /**
   * Reads up to {@code dst.remaining()} bytes at {@code offset}.
   *
   * @return bytes read, 0 at or past the end
   * @throws StoreException when a GET fails (PRECONDITION_FAILED if the object changed)
   */
  public int read(long offset, ByteBuffer dst) {
    if (offset >= size || !dst.hasRemaining()) {
      return 0;
    }
    int len = (int) Math.min(dst.remaining(), size - offset);
    if (offset + len >= size && idle()) {
      // a read that reaches the end of the file with no stream going: there is nothing to read ahead, so no chunk
      // buffer (a whole 4 MiB chunk per small file read in one go, held while the file stays open: 1.4-2 GB of direct
      // memory for 16 processes copying 128 KiB files over NFS, issue 22) and no hand-off to a read-ahead thread
      return direct(offset, dst, len);
    }
    long first = offset / chunkSize;
    long last = (offset + len - 1) / chunkSize;
    // the chunks this read copies from, pinned so eviction by a concurrent read cannot recycle their buffers; a read
    // spans at most two chunks unless it is larger than one (then an array: rare, FUSE and NFS ask <= 1 MiB)
    Chunk c0 = null;
    Chunk c1 = null;
    Chunk[] more = null;
    synchronized (this) {
      int how = advance(offset, len);
      if (how == DIRECT || closed) {
        if (!closed) {
          evict(first, first - 1);
        }
        c0 = null;
      } else {
        if (how == STREAM) {
          // chunks fetched beyond today's window (it shrank as other files started streaming) are kept and read; the
          // ones behind go first, so their buffers serve the new chunks
          cursor = first;
          evict(first, last + maxWindow);
          schedule(first, last + window);
        }
        c0 = pinned(first);
        if (last > first) {
          c1 = pinned(first + 1);
        }
        if (last > first + 1) {
          more = new Chunk[(int) (last - first + 1)];
          more[0] = c0;
          more[1] = c1;
          for (long idx = first + 2; idx <= last; idx++) {
            more[(int) (idx - first)] = pinned(idx);
          }
        }
      }
    }
    if (c0 == null && c1 == null && more == null) {
      return direct(offset, dst, len); // no read-ahead, or its chunk could not be had: just the bytes asked for
    }
    try {
      int done = 0;
      for (long idx = first; idx <= last; idx++) {
        long cStart = idx * chunkSize;
        long from = Math.max(offset, cStart);
        int n = (int) (Math.min(offset + len, cStart + chunkSize) - from);
        Chunk c = more != null ? more[(int) (idx - first)] : idx == first ? c0 : c1;
        int got = c == null ? -1 : copy(c, from - cStart, dst, n);
        if (got < 0) {
          got = directPiece(from, dst, n); // not held, or its GET failed (maybe long ago): this read asks OSS itself
        }
        done += got;
        if (got < n) {
          break;
        }
      }
      return done;
    } finally {
      unpin(c0);
      unpin(c1);
      if (more != null) {
        for (int i = 2; i < more.length; i++) {
          unpin(more[i]);
        }
      }
    }
  }

  /**
   * Moves the sequential-read state on by a read of {@code len} bytes at {@code offset}: {@link #STREAM} (read from
   * the window, moved on), {@link #OUT_OF_ORDER} (read from the chunks held, nothing moved) or {@link #DIRECT}.
   * Close to where the last read ended counts as sequential: the kernel's parallel read-ahead requests arrive slightly
   * out of order. One such read after a random one may be chance (random reads in a small file land near each other
   * often), so read-ahead starts with the second in a row, or at once for a read from the start.
   */
  private int advance(long offset, int len) {
    boolean sequential = Math.abs(offset - nextExpected) <= Math.min(chunkSize, Math.max(SEQUENTIAL_SLACK, 4L * len));
    if (!sequential && window > 0 && !closed && chunks.containsKey(offset / chunkSize)
        && chunks.containsKey((offset + len - 1) / chunkSize)) {
      // out of order, but inside what the stream holds (the kernel's parallel READs on several threads arrive early or
      // late by more than the slack now and then): served from memory, the stream goes on. Resetting here freed the
      // whole window and fetched it again a moment later. Nor does it move the window: an early read would free the
      // chunks the reads in between still need.
      return OUT_OF_ORDER;
    }
    if (!sequential && window > 0 && !closed && offset < nextExpected
        && offset / chunkSize >= cursor - (long) maxWindow - maxLag()) {
      // late: a READ of a deep pipeline (an NFS client keeps sixteen 1 MiB READs in flight, served by as many threads
      // in any order) that comes after reads far ahead of it moved the stream on, its chunk freed already. Resetting
      // freed the whole window and fetched it again (28 % more bytes from OSS than read, issue 22): it is served from
      // what is held, the rest with a GET of just its bytes, and the stream keeps that much more behind it from now on
      lag = (int) Math.min(maxLag(), Math.max(lag, cursor - offset / chunkSize));
      return OUT_OF_ORDER;
    }
    streak = sequential ? streak + 1 : 0;
    boolean stream = maxWindow > 0 && (streak >= 2 || (sequential && offset == 0));
    int was = window;
    window = !stream || closed ? 0 : window == 0 ? 1 : Math.min(window * 2, share.windowCap(maxWindow, backwardChunks));
    if ((was == 0) != (window == 0)) {
      if (window > 0) {
        share.join();
      } else {
        share.leave();
      }
    }
    nextExpected = sequential ? Math.max(nextExpected, offset + len) : offset + len;
    return window > 0 ? STREAM : DIRECT;
  }

  /** The chunk {@code idx}, pinned, or null when it is not held. Under the lock. */
  private Chunk pinned(long idx) {
    Chunk c = chunks.get(idx);
    if (c != null) {
      c.hold();
    }
    return c;
  }

  private static void unpin(Chunk c) {
    if (c != null) {
      c.unhold();
    }
  }

  /** Reads {@code n} bytes at {@code from} into dst with a ranged GET of its own (outside the lock). */
  private int directPiece(long from, ByteBuffer dst, int n) {
    int limit = dst.limit();
    dst.limit(dst.position() + n);
    try {
      return direct(from, dst, n);
    } finally {
      dst.limit(limit);
    }
  }

  /**
   * Copies up to {@code n} bytes at {@code at} in chunk {@code c} to dst, waiting once if its GET is in flight; -1 when
   * that GET failed for another reason than a changed or deleted object (the chunk is dropped, and the caller reads the
   * piece with a GET of its own: a failure that is over by now is not reported, one that is not is reported by it).
   */
  private int copy(Chunk c, long at, ByteBuffer dst, int n) {
    try {
      c.await();
    } catch (RuntimeException e) {
      synchronized (this) {
        if (chunks.get(c.index) == c) {
          chunks.remove(c.index); // a later read tries again
          scheduledThrough = Math.min(scheduledThrough, c.index - 1);
          c.free();
        }
      }
      if (e instanceof StoreException se && se.kind() != StoreErrorKind.PRECONDITION_FAILED
          && se.kind() != StoreErrorKind.NOT_FOUND) {
        return -1;
      }
      throw e; // the object changed or is gone: a GET of our own would only say so again
    }
    int avail = (int) Math.max(0, Math.min(n, c.length - at));
    // absolute bulk put: no duplicate() per read, and the chunk's buffer state is never touched
    int p = dst.position();
    dst.put(p, c.buf, (int) at, avail);
    dst.position(p + avail);
    return avail;
  }

  private int direct(long offset, ByteBuffer dst, int len) {
    int limit = dst.limit();
    dst.limit(dst.position() + len);
    try {
      RangeRead r = store.getObjectRange(key, offset, dst, etag);
      pin(r);
      return r.bytesRead();
    } finally {
      dst.limit(limit);
    }
  }

  private void pin(RangeRead r) {
    if (etag == null && r.etag() != null) {
      etag = r.etag();
    }
    if (seen == null && r.object() != null) {
      seen = r.object();
    }
  }

  /**
   * The object's metadata from the response headers of a GET this reader made (all its GETs are of one version), or
   * null when none has returned yet or every read came from a cache.
   */
  public ObjectInfo objectSeen() {
    return seen;
  }

  /** Starts GETs for chunks [from, to] that are not held yet, while buffers are available. */
  private void schedule(long from, long to) {
    long lastChunk = (size - 1) / chunkSize;
    for (long idx = Math.max(from, scheduledThrough + 1); idx <= Math.min(to, lastChunk); idx++) {
      if (chunks.containsKey(idx)) {
        scheduledThrough = idx;
        continue;
      }
      ByteBuffer buf = pool.tryAcquire();
      if (buf == null) {
        return; // budget spent: the rest is read directly
      }
      scheduledThrough = idx;
      Chunk c = new Chunk(idx, buf);
      chunks.put(idx, c);
      prefetchedChunks++;
      long start = idx * chunkSize;
      int length = (int) Math.min(chunkSize, size - start);
      try {
        c.future = CompletableFuture.runAsync(() -> c.fill(start, length), executor);
      } catch (RejectedExecutionException e) {
        chunks.remove(idx); // the engine is closing: this read goes direct
        scheduledThrough = idx - 1;
        pool.release(buf);
        return;
      }
    }
  }

  /** Frees chunks outside [cursor - lag, windowEnd] (lag: {@code backwardChunks} or more after late reads). */
  private void evict(long cursor, long windowEnd) {
    // from both ends of the sorted map: the held chunks are a run around the cursor, so this touches only what goes
    while (!chunks.isEmpty() && chunks.firstKey() < cursor - lag) {
      chunks.remove(chunks.firstKey()).free();
    }
    while (!chunks.isEmpty() && chunks.lastKey() > windowEnd) {
      chunks.remove(chunks.lastKey()).free();
    }
    scheduledThrough = Math.min(scheduledThrough, windowEnd);
  }

  /** Frees every chunk; an in-flight GET returns its buffer when it ends. */
  @Override
  public synchronized void close() {
    closed = true;
    if (window > 0) {
      window = 0;
      share.leave();
    }
    for (Chunk c : chunks.values()) {
      c.free();
    }
    chunks.clear();
  }

  /**
   * One chunk's buffer and GET. Its buffer goes back to the pool once it is freed (evicted or closed), its GET has ended
   * and no read is copying from it (pins), whichever comes last.
   */
  private final class Chunk {
    final long index;
    final ByteBuffer buf;
    volatile int length;
    volatile CompletableFuture<Void> future;
    private boolean freed;
    private boolean filling = true;
    private boolean released;
    private int pins;

    Chunk(long index, ByteBuffer buf) {
      this.index = index;
      this.buf = buf;
    }

    void fill(long start, int len) {
      try {
        ByteBuffer dst = buf.duplicate().clear().limit(len);
        int total = 0;
        while (total < len) {
          RangeRead r = store.getObjectRange(key, start + total, dst, etag);
          pin(r);
          if (r.bytesRead() == 0) {
            break;
          }
          total += r.bytesRead();
        }
        length = total;
      } finally {
        synchronized (this) {
          filling = false;
          releaseIfUnused();
        }
      }
    }

    void await() {
      try {
        future.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw e;
      }
    }

    synchronized void hold() {
      pins++;
    }

    synchronized void unhold() {
      pins--;
      releaseIfUnused();
    }

    synchronized void free() {
      freed = true;
      releaseIfUnused();
    }

    private void releaseIfUnused() {
      if (freed && !filling && pins == 0 && !released) {
        released = true;
        pool.release(buf);
      }
    }

    @Override
    public String toString() {
      return "chunk " + index;
    }
  }
}
