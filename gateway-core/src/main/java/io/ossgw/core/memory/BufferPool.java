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

  /** @param bufferSize bytes per buffer */
  public BufferPool(int bufferSize, MemoryBudget budget) {
    this.bufferSize = bufferSize;
    this.budget = budget;
  }

  /** A cleared buffer of {@link #bufferSize()} bytes, or null when the budget (or the JVM's direct memory) is spent. */
  public ByteBuffer tryAcquire() {
    ByteBuffer b = idle.poll();
    if (b == null) {
      if (!budget.tryReserve(bufferSize)) {
        return null;
      }
      try {
        b = ByteBuffer.allocateDirect(bufferSize);
      } catch (OutOfMemoryError e) {
        // the JVM's direct-memory limit (-XX:MaxDirectMemorySize, by default -Xmx) is spent by other users: behave as
        // if the budget were, so the caller falls back to a plain ranged GET instead of failing the read
        budget.release(bufferSize);
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

  public int bufferSize() {
    return bufferSize;
  }

  public MemoryBudget budget() {
    return budget;
  }
}
