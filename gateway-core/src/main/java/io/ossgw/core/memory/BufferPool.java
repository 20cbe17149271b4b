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

  /** A cleared buffer of {@link #bufferSize()} bytes, or null when the budget is spent. */
  public ByteBuffer tryAcquire() {
    ByteBuffer b = idle.poll();
    if (b == null) {
      if (!budget.tryReserve(bufferSize)) {
        return null;
      }
      b = ByteBuffer.allocateDirect(bufferSize);
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
