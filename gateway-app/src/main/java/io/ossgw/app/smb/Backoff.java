package io.ossgw.app.smb;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounded exponential backoff for restarting a crashed child: the first restart waits {@code initial}, each further
 * one twice as long up to {@code max}; a child that ran for at least {@code stableAfter} counts as healthy and the
 * next delay starts again from {@code initial}. Not thread-safe (one supervisor thread uses it).
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final Duration stableAfter;
  private Duration last;

  /**
   * @param initial the first delay (positive)
   * @param max the largest delay (at least {@code initial})
   * @param stableAfter the run time after which a child counts as healthy
   * @throws IllegalArgumentException for a non-positive initial or max below initial
   */
  public Backoff(Duration initial, Duration max, Duration stableAfter) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.stableAfter = Objects.requireNonNull(stableAfter, "stableAfter");
    if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= max, got " + initial + " and " + max);
    }
  }

  /** smbd's: 1 s, 2 s, 4 s ... at most 30 s; reset after 60 s of running. */
  public static Backoff smbdDefault() {
    return new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(60));
  }

  /**
   * The delay before the next start.
   *
   * @param uptime how long the child that just exited had run
   */
  public Duration next(Duration uptime) {
    if (last == null || uptime.compareTo(stableAfter) >= 0) {
      last = initial;
    } else {
      Duration doubled = last.multipliedBy(2);
      last = doubled.compareTo(max) > 0 ? max : doubled;
    }
    return last;
  }
}
