package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.fuse.FuseStats;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The listed names are invalidated by several threads at once: in the kernel each invalidation waits for its
 * directory's lock, which a listing in progress takes for every {@code getdents}, and only the invalidations already
 * waiting get in between two of them; one thread fell behind a default-mode {@code ls} of 300,000 entries and left a
 * third of them in the kernel. Here each invalidation waits until {@code invalidators} of them are waiting together,
 * as they would queue for the lock; with fewer threads it would wait forever, and the test fails at its deadline.
 */
class ListedNamesParallelTest {
  static final int THREADS = 4;
  static final CountDownLatch ALL_WAITING = new CountDownLatch(THREADS);
  static final AtomicInteger IN_FLIGHT = new AtomicInteger();
  static final AtomicInteger MOST_IN_FLIGHT = new AtomicInteger();

  /** Stands in for {@code fuse_lowlevel_notify_inval_entry}: returns once THREADS calls have been in flight at once. */
  static int inval(MemorySegment session, long parent, MemorySegment name, long length) {
    MOST_IN_FLIGHT.accumulateAndGet(IN_FLIGHT.incrementAndGet(), Math::max);
    ALL_WAITING.countDown();
    try {
      return ALL_WAITING.await(30, TimeUnit.SECONDS) ? 0 : -110; // ETIMEDOUT: the threads never met
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -4; // EINTR
    } finally {
      IN_FLIGHT.decrementAndGet();
    }
  }

  @Test
  void invalidationsWaitForTheDirectoryLockTogether() throws Exception {
    MethodHandle h = MethodHandles.lookup().findStatic(ListedNamesParallelTest.class, "inval",
        MethodType.methodType(int.class, MemorySegment.class, long.class, MemorySegment.class, long.class));
    FuseStats stats = new FuseStats();
    int keep = 100; // a burst is 25: each of the 4 threads takes 6 names at a time
    try (ListedNames names = ListedNames.forTest(keep, THREADS, h, stats)) {
      for (int i = 0; i < keep + 25; i++) {
        names.listed(7, "f" + i);
      }
      assertThat(ALL_WAITING.await(30, TimeUnit.SECONDS)).as("%d invalidations waiting at once", THREADS).isTrue();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (names.remembered() > keep || stats.namesInvalidated() < 25) {
        assertThat(System.nanoTime()).as("the queue drained to keep").isLessThan(deadline);
        Thread.onSpinWait();
      }
    }
    assertThat(MOST_IN_FLIGHT.get()).isEqualTo(THREADS);
    assertThat(stats.namesInvalidated()).isEqualTo(25);
    assertThat(stats.namesNotTracked()).isZero();
  }
}
