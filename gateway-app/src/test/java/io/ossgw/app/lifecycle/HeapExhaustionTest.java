package io.ossgw.app.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The rule that ends a process whose heap is exhausted (issue 21 item 4), fed with samples on a made-up clock: both a
 * full old generation and collecting half of the last window or more; either alone is a busy, healthy heap.
 * src/test/reliability/test_heap_exhaustion.py drives real processes there.
 */
class HeapExhaustionTest {
  private static final long MS = 1_000_000L;

  /** Feeds {@code seconds} of samples from {@code t} (ms), collecting {@code share} of the time; returns the verdict. */
  private static boolean run(HeapExhaustion rule, long[] clock, double share, double occupancy, long seconds) {
    boolean exhausted = false;
    for (long end = clock[0] + seconds * 1000; clock[0] < end; ) {
      clock[0] += HeapExhaustion.PERIOD_MILLIS;
      clock[1] += (long) (HeapExhaustion.PERIOD_MILLIS * share);
      exhausted = rule.exhausted(clock[0] * MS, clock[1], occupancy);
    }
    return exhausted;
  }

  @Test
  void aFullHeapCollectingHalfOfTheLastWindowIsExhausted() {
    HeapExhaustion rule = new HeapExhaustion();
    long[] clock = {5_000, 300}; // ms since start, GC ms so far
    assertThat(run(rule, clock, 0.02, 0.5, 30)).isFalse();
    assertThat(run(rule, clock, 0.95, 0.97, 4)).as("not yet half of the window collecting").isFalse();
    assertThat(run(rule, clock, 0.95, 0.97, 2)).isTrue();
    assertThat(rule.lastShare()).isBetween(0.5, 0.6);
    assertThat(rule.lastOccupancy()).isEqualTo(0.97);
  }

  @Test
  void muchCollectingWithRoomLeftOrAFullHeapCollectedNowAndThenIsHealthy() {
    HeapExhaustion rule = new HeapExhaustion();
    long[] clock = {0, 0};
    assertThat(run(rule, clock, 0.9, 0.6, 60)).as("busy, room to spare").isFalse();
    assertThat(run(rule, clock, 0.1, 0.99, 60)).as("full, rarely collected").isFalse();
    assertThat(run(rule, clock, 0.45, 0.95, 60)).as("just under the share").isFalse();
    assertThat(run(rule, clock, 0.6, 0.89, 60)).as("just under the occupancy").isFalse();
    assertThat(run(rule, clock, 0.6, 0.9, 11)).isTrue();
  }

  @Test
  void aSamplerThatWasStarvedStillMeasuresOverAtLeastTheWindow() {
    HeapExhaustion rule = new HeapExhaustion();
    long[] clock = {0, 0};
    run(rule, clock, 0.0, 0.95, 20);
    // the collector held the sampler off for 8 s, all of it collecting, then it samples again
    clock[0] += 8_000;
    clock[1] += 8_000;
    assertThat(rule.exhausted(clock[0] * MS, clock[1], 0.95)).as("8 s of 10 collecting").isTrue();
  }

  @Test
  void theFatalLineNamesTheHeapMemoryLimitTheStatusAndTheRemedy() {
    String line = HeapGuard.fatalLine("ossgw mount b /mnt/x", "256", "-Xmx128m");
    assertThat(line).startsWith("FATAL: ossgw mount b /mnt/x: the Java heap is exhausted (-Xmx128m; memory_limit=256 MB)")
        .contains("exit status 4").contains("-o memory_limit=MB").contains("OSSGW_JAVA_OPTS").endsWith("\n");
    assertThat(line.strip()).doesNotContain("\n");
    assertThat(HeapGuard.fatalLine("ossgw emulator", null, "-Xmx40m")).contains("(-Xmx40m)");
  }
}
