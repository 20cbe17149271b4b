package io.ossgw.app.lifecycle;

/**
 * When a heap counts as exhausted (issue 21 item 4), decided from samples taken every {@link #PERIOD_MILLIS} ms: over
 * the last {@link #WINDOW_MILLIS} ms the collector's pauses took at least {@link #GC_SHARE} of the time, and the old
 * generation is at least {@link #OCCUPANCY} full after its last collection. A heap in that state frees almost nothing
 * per collection and collects almost all the time; nothing the process does gets done any more, and with the serial
 * and G1 collectors nothing ends it either ({@code -XX:+UseGCOverheadLimit} only works with the parallel collector;
 * an OutOfMemoryError, when one comes, is caught by whatever thread it hits). A busy but healthy heap has one of the
 * two, not both: much collecting with room to spare, or a full old generation collected now and then.
 *
 * <p>Not thread-safe: one sampling thread feeds it. Holds a fixed ring of samples and allocates nothing per sample, so
 * it keeps working on a full heap.
 */
final class HeapExhaustion {
  /** Time between samples. */
  static final long PERIOD_MILLIS = 500;
  /** How far back the share of time spent collecting is measured. */
  static final long WINDOW_MILLIS = 10_000;
  /** Share of the window spent in collection pauses at or above which the process makes no progress. */
  static final double GC_SHARE = 0.5;
  /** Old-generation occupancy after its last collection at or above which the heap has no room left. */
  static final double OCCUPANCY = 0.9;

  private final long[] nanos;
  private final long[] gcMillis;
  private int next;
  private int count;
  private double lastShare;
  private double lastOccupancy;

  HeapExhaustion() {
    int slots = (int) (WINDOW_MILLIS / PERIOD_MILLIS) + 2;
    nanos = new long[slots];
    gcMillis = new long[slots];
  }

  /**
   * Adds a sample and tells whether the heap is exhausted.
   *
   * @param nowNanos {@link System#nanoTime()} of the sample
   * @param gcMillisTotal the collectors' pause time since the JVM started, ms (summed over collectors)
   * @param occupancy the old generation's occupancy after its last collection, 0..1
   * @return true when, over at least the whole window, collection took {@link #GC_SHARE} of the time and the old
   *     generation is {@link #OCCUPANCY} full
   */
  boolean exhausted(long nowNanos, long gcMillisTotal, double occupancy) {
    nanos[next] = nowNanos;
    gcMillis[next] = gcMillisTotal;
    next = (next + 1) % nanos.length;
    count = Math.min(count + 1, nanos.length);
    lastOccupancy = occupancy;
    // the oldest sample at least a window back, if the ring reaches that far
    int oldest = -1;
    for (int i = 0; i < count; i++) {
      int slot = Math.floorMod(next - 1 - i, nanos.length);
      if (nowNanos - nanos[slot] >= WINDOW_MILLIS * 1_000_000L) {
        oldest = slot;
        break;
      }
    }
    if (oldest < 0) {
      lastShare = 0;
      return false;
    }
    long spanMillis = Math.max(1, (nowNanos - nanos[oldest]) / 1_000_000L);
    lastShare = (double) (gcMillisTotal - gcMillis[oldest]) / spanMillis;
    return lastShare >= GC_SHARE && occupancy >= OCCUPANCY;
  }

  /** The share of time spent collecting measured by the last sample (0 until a whole window is covered). */
  double lastShare() {
    return lastShare;
  }

  /** The occupancy of the last sample. */
  double lastOccupancy() {
    return lastOccupancy;
  }
}
