package io.ossgw.core.read;

import io.ossgw.core.memory.BufferPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The read-ahead memory budget split fairly between the files being read sequentially at once (issue 14 item 5): each
 * streaming {@link ReadAhead} may hold at most {@code budget / chunk / streams} chunks (its window plus the chunks it
 * keeps behind the cursor and the one it reads from), at least {@link #MIN_WINDOW} ahead, never more than
 * {@code direct_read_prefetch_chunks}. Without it the first readers' windows (128 MiB each by default) took the whole
 * budget and later readers fell back to one ranged GET per FUSE read (128 KiB), an order of magnitude slower.
 *
 * <p>A reader that shrinks because others started keeps the chunks it already fetched and reads them before it fetches
 * again, so memory moves to the newcomers as the old readers consume, without discarding fetched bytes. Thread-safe.
 */
public final class ReadAheadShare {
  /** The smallest window a streaming reader is granted, in chunks: one being read, one in flight. */
  public static final int MIN_WINDOW = 2;

  private final long budgetChunks;
  private final AtomicInteger streams = new AtomicInteger();

  /** A share of {@code pool}'s budget ({@code pool.budget().capacity() / pool.bufferSize()} chunks). */
  public ReadAheadShare(BufferPool pool) {
    this.budgetChunks = Math.max(1, pool.budget().capacity() / pool.bufferSize());
  }

  /** Counts one more reader streaming. */
  void join() {
    streams.incrementAndGet();
  }

  /** Counts one reader fewer (it stopped streaming or closed). */
  void leave() {
    streams.decrementAndGet();
  }

  /** Readers streaming now. */
  public int streams() {
    return streams.get();
  }

  /**
   * The window (chunks ahead of the one being read) a streaming reader may use now.
   *
   * @param maxWindow {@code direct_read_prefetch_chunks}
   * @param backwardChunks {@code direct_read_backward_chunks}, which the reader also holds
   */
  int windowCap(int maxWindow, int backwardChunks) {
    long each = budgetChunks / Math.max(1, streams.get()) - backwardChunks - 1;
    return (int) Math.min(maxWindow, Math.max(MIN_WINDOW, each));
  }
}
