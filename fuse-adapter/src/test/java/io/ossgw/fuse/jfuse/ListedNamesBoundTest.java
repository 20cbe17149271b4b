package io.ossgw.fuse.jfuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.fuse.FuseStats;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The queue of listed names waiting to be invalidated is bounded even when the invalidations cannot proceed (in the
 * kernel each waits for the directory's lock, which a listing in progress holds): a default-mode {@code ls} of
 * 1,000,000 entries had it hold 560,000 names and exhausted a 128 MB heap. Here the invalidation blocks until the test
 * lets it go, as the directory's lock would.
 */
class ListedNamesBoundTest {
  static final CountDownLatch LOCK_FREE = new CountDownLatch(1);
  static final AtomicInteger CALLS = new AtomicInteger();

  /** Stands in for {@code fuse_lowlevel_notify_inval_entry}: waits for the "directory lock", then succeeds. */
  static int inval(MemorySegment session, long parent, MemorySegment name, long length) {
    CALLS.incrementAndGet();
    try {
      LOCK_FREE.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -4; // EINTR
    }
    return 0;
  }

  @Test
  void namesListedWhileInvalidationsWaitStopAtFourTimesKeepAndAreCounted() throws Exception {
    MethodHandle h = MethodHandles.lookup().findStatic(ListedNamesBoundTest.class, "inval",
        MethodType.methodType(int.class, MemorySegment.class, long.class, MemorySegment.class, long.class));
    FuseStats stats = new FuseStats();
    int keep = 1000; // a burst is 250, the bound 4,000
    int listed = 120_000;
    try (ListedNames names = ListedNames.forTest(keep, ListedNames.DEFAULT_INVALIDATORS, h, stats)) {
      try {
        for (int i = 0; i < listed; i++) {
          names.listed(7, "f" + i);
        }
        // the invalidating threads hold at most one burst they took out of the queue between them
        assertThat(names.remembered()).isLessThanOrEqualTo(4000);
        assertThat(stats.namesNotTracked()).isBetween((long) listed - 4000 - 250, (long) listed - 4000);
        assertThat(stats.namesInvalidated()).isZero();
      } finally {
        LOCK_FREE.countDown();
      }
    }
    assertThat(CALLS.get()).isPositive();
  }
}
