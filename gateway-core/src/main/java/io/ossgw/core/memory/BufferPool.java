package io.ossgw.core.memory;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Pooled off-heap buffers of one size, allocated only within a {@link MemoryBudget}. Direct buffers cannot be freed
 * explicitly in Java, so instead of dropping them the pool keeps them for reuse; the budget counts every buffer the pool
 * has ever allocated, in use or idle.
 */
public final class BufferPool {
  private final int bufferSize;
  private final MemoryBudget budget;
  private final ConcurrentLinkedQueue<ByteBuffer> idle = new ConcurrentLinkedQueue<>();
  private final long maxBytes;
  private final java.util.concurrent.atomic.AtomicLong allocated = new java.util.concurrent.atomic.AtomicLong();

  /** @param bufferSize bytes per buffer */
  public BufferPool(int bufferSize, MemoryBudget budget) {
    this(bufferSize, budget, Long.MAX_VALUE);
  }

  /**
   * A pool that allocates at most {@code maxBytes} of the budget (in use and idle together), so one user of the shared
   * budget (write staging) cannot keep all of it from the others (read-ahead).
   *
   * @param bufferSize bytes per buffer
   * @param maxBytes the most bytes this pool ever allocates
   */
  public BufferPool(int bufferSize, MemoryBudget budget, long maxBytes) {
    this.bufferSize = bufferSize;
    this.budget = budget;
    this.maxBytes = maxBytes;
  }

  /** A cleared buffer of {@link #bufferSize()} bytes, or null when the budget (or the JVM's direct memory) is spent. */
  public ByteBuffer tryAcquire() {
    ByteBuffer b = idle.poll();
    if (b == null) {
      if (allocated.addAndGet(bufferSize) > maxBytes) {
        allocated.addAndGet(-bufferSize);
        return null;
      }
      if (!budget.tryReserve(bufferSize)) {
        allocated.addAndGet(-bufferSize);
        return null;
      }
      try {
        b = ByteBuffer.allocateDirect(bufferSize);
      } catch (OutOfMemoryError e) {
        // the JVM's direct-memory limit (-XX:MaxDirectMemorySize, by default -Xmx) is spent by other users: behave as
        // if the budget were, so the caller falls back (a plain ranged GET, the spool) instead of failing
        budget.release(bufferSize);
        allocated.addAndGet(-bufferSize);
        return null;
      }
    }
    return b.clear();
  }

  /** Gives a buffer back for reuse. */
  public void release(ByteBuffer b) {
    if (b != null) {
      idle.offer(b);
    }
  }

  /** The most bytes this pool allocates ({@link Long#MAX_VALUE}: only the budget limits it). */
  public long maxBytes() {
    return maxBytes;
  }

  /** Bytes this pool has allocated (buffers in use and idle). */
  public long allocated() {
    return allocated.get();
  }

  /** Buffers lent out now: allocated and not given back (counts the idle queue: for tests and diagnostics). */
  public long inUse() {
    return allocated.get() / bufferSize - idle.size();
  }

  public int bufferSize() {
    return bufferSize;
  }

  public MemoryBudget budget() {
    return budget;
  }
}
