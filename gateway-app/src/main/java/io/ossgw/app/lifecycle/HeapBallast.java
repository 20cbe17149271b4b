package io.ossgw.app.lifecycle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Fault injection for the {@link HeapGuard}'s tests, never for production: with
 * {@code -Dio.ossgw.fault.heap_ballast=/path/trigger}, once that file exists the process retains 1 MiB of heap every
 * 100 ms until the heap is exhausted. Its listings, caches and NFS state are bounded (issue 21), so no ordinary
 * workload fills a heap any more; the guard exists for what a bug would still let grow, and this stands in for such a
 * bug while the process serves real requests. Unset (the default), nothing is started.
 */
final class HeapBallast {
  static final String PROPERTY = "io.ossgw.fault.heap_ballast";
  private static final int PIECE_BYTES = 1 << 20;
  private static final long PERIOD_MILLIS = 100;
  /** Static, so that what was retained stays when the OutOfMemoryError ends the thread: the heap stays exhausted. */
  private static final List<byte[]> HELD = new ArrayList<>();

  private HeapBallast() {}

  /** Starts the ballast thread if {@value #PROPERTY} names a trigger file; otherwise does nothing. */
  static void startIfAsked() {
    String trigger = System.getProperty(PROPERTY);
    if (trigger == null || trigger.isBlank()) {
      return;
    }
    Path path = Path.of(trigger);
    Thread.ofPlatform().daemon().name("ossgw-heap-ballast").start(() -> grow(path));
  }

  private static void grow(Path trigger) {
    try {
      while (!Files.exists(trigger)) {
        Thread.sleep(PERIOD_MILLIS);
      }
      while (true) {
        HELD.add(new byte[PIECE_BYTES]);
        Thread.sleep(PERIOD_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
