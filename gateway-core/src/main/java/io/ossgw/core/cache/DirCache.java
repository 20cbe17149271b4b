package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import java.time.Duration;
import java.util.Optional;

/**
 * Directory path -> {@link DirState}: the listing cache. Same TTL as the stat cache; its size bound counts child
 * entries, so one huge directory cannot hold more than {@code max_stat_cache_size} entries of memory.
 */
public final class DirCache {
  private final Cache<String, DirState> cache;
  private final boolean enabled;

  public DirCache(Duration ttl, boolean sliding, long maxEntries, Ticker ticker) {
    this.enabled = maxEntries > 0;
    Caffeine<String, DirState> b = Caffeine.newBuilder()
        .ticker(ticker)
        .maximumWeight(Math.max(1, maxEntries))
        .weigher((String k, DirState v) -> Math.max(1, v.children().size()));
    if (ttl != null) {
      if (sliding) {
        b.expireAfterAccess(ttl);
      } else {
        b.expireAfterWrite(ttl);
      }
    }
    io.ossgw.core.observe.Observation.recordStats(b, "dir"); // hits/misses/evictions for metrics
    this.cache = b.build();
  }

  public Optional<DirState> get(String dir) {
    return enabled ? Optional.ofNullable(cache.getIfPresent(dir)) : Optional.empty();
  }

  public void put(String dir, DirState state) {
    if (enabled) {
      cache.put(dir, state);
    }
  }

  /** Records a new or changed child in a cached listing (no-op if the directory is not cached). */
  public void childChanged(String dir, String name, Node node) {
    DirState s = enabled ? cache.asMap().get(dir) : null; // a map read: not a lookup in the hit/miss statistics
    if (s != null) {
      s.children().put(name, node);
    }
  }

  /** Records a removed child in a cached listing. */
  public void childRemoved(String dir, String name) {
    DirState s = enabled ? cache.asMap().get(dir) : null; // a map read: not a lookup in the hit/miss statistics
    if (s != null) {
      s.children().remove(name);
    }
  }

  public void invalidate(String dir) {
    cache.invalidate(dir);
  }

  /** Drops the listing of {@code dir} and of every directory below it. */
  public void invalidateTree(String dir) {
    String below = "/".equals(dir) ? "/" : dir + "/";
    cache.asMap().keySet().removeIf(k -> k.equals(dir) || k.startsWith(below));
  }
}
