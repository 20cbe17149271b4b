package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * How ossgw builds its Caffeine caches: every cache runs its maintenance (draining the read and write buffers, expiry,
 * eviction) on the thread that touched it, not on {@code ForkJoinPool.commonPool()}, Caffeine's default executor.
 *
 * <p>Why: with the default, almost every write to a cache (the NFS reply cache on each non-idempotent call, the stat
 * cache on each create and upload) hands a maintenance task to the common pool, which wakes one of its parked threads
 * for a few microseconds of work and parks it again. Over NFS small-file writes (2,000 x 128 KiB by 16 clients) those
 * wake-ups cost 0.3-0.6 CPU-s per 2,000 files, a tenth of the gateway's CPU, nearly all of it in the kernel's futex
 * and scheduler paths (docs/benchmarks.md "Sixth pass"). Run inline, the same maintenance is amortised work under
 * Caffeine's own try-lock. None of our caches has a removal or eviction listener, so nothing slow can run on a
 * caller's thread.
 */
public final class Caches {
  private Caches() {}

  /** {@code Caffeine.newBuilder()} with maintenance on the calling thread (see the class comment). */
  public static Caffeine<Object, Object> newBuilder() {
    return Caffeine.newBuilder().executor(Runnable::run);
  }
}
