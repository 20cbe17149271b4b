package io.ossgw.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Cache;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class CachesTest {
  /**
   * Caffeine's eviction runs in its maintenance; with the default executor that is a task on the common pool, so the
   * listener would run on a pool thread, after {@code put} returned. Built by {@link Caches}, it has already run, on the
   * caller's thread, when {@code put} returns.
   */
  @Test
  void maintenanceRunsOnTheCallersThreadBeforePutReturns() {
    List<Thread> evictedOn = Collections.synchronizedList(new ArrayList<>());
    Cache<Integer, Integer> c = Caches.newBuilder().maximumSize(1)
        .<Integer, Integer>evictionListener((k, v, cause) -> evictedOn.add(Thread.currentThread())).build();
    for (int i = 0; i < 100; i++) {
      c.put(i, i);
    }
    assertThat(c.estimatedSize()).isEqualTo(1);
    assertThat(evictedOn).hasSize(99).allMatch(t -> t == Thread.currentThread());
  }
}
