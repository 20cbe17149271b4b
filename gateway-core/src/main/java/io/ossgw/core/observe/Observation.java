package io.ossgw.core.observe;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import java.util.function.Supplier;

/**
 * The observer of the engine being built. {@code Engine} binds it (a {@link ScopedValue}) around the construction of
 * its file system, so components created inside (the caches) pick it up with {@link #current()} instead of taking a
 * constructor parameter through every layer. Outside such a scope (unit tests building a cache alone) it is
 * {@link EngineObserver#NONE}.
 */
public final class Observation {
  private static final ScopedValue<EngineObserver> CURRENT = ScopedValue.newInstance();

  private Observation() {}

  /** The observer bound by the enclosing {@link #with} call, else {@link EngineObserver#NONE}. */
  public static EngineObserver current() {
    return CURRENT.orElse(EngineObserver.NONE);
  }

  /** Runs {@code body} with {@code observer} as {@link #current()}; exceptions pass through unchanged. */
  public static <T> T with(EngineObserver observer, Supplier<T> body) {
    return ScopedValue.where(CURRENT, observer).call(body::get);
  }

  /**
   * Makes a Caffeine cache report its lookups and evictions to the current observer under {@code name}; nothing is
   * recorded (and Caffeine keeps no statistics) when there is none.
   *
   * @return {@code builder}
   */
  public static <K, V> Caffeine<K, V> recordStats(Caffeine<K, V> builder, String name) {
    EngineObserver o = current();
    if (o != EngineObserver.NONE) {
      builder.recordStats(() -> new ObserverStats(o, name));
    }
    return builder;
  }

  /** Caffeine's statistics hooks forwarded to an observer; loads are not used by the engine's caches. */
  private record ObserverStats(EngineObserver observer, String name) implements StatsCounter {
    @Override
    public void recordHits(int count) {
      observer.cacheLookups(name, true, count);
    }

    @Override
    public void recordMisses(int count) {
      observer.cacheLookups(name, false, count);
    }

    @Override
    public void recordLoadSuccess(long loadTime) {}

    @Override
    public void recordLoadFailure(long loadTime) {}

    /** Size-bound and TTL evictions; explicit invalidations and replacements are not evictions. */
    @Override
    public void recordEviction(int weight, RemovalCause cause) {
      if (cause.wasEvicted()) {
        observer.cacheEviction(name);
      }
    }

    @Override
    public CacheStats snapshot() {
      return CacheStats.empty();
    }
  }
}
