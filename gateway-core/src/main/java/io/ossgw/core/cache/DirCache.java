package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import java.time.Duration;
import java.util.Optional;

/**
 * Directory path -> {@link DirState}: the cache of whole listings. Same TTL as the stat cache; bounded in bytes (each
 * listing weighed by {@link DirState#weight()} when cached) by its share of the memory budget ({@link
 * MetadataBudget#listingBytes()}). Directories too big to keep whole never enter it: the engine streams them through
 * its {@link ListingWindow}.
 */
public final class DirCache {
  private final Cache<String, DirState> cache;
  private final boolean enabled;

  /**
   * @param ttl entry lifetime, or null for no expiry
   * @param sliding TTL counted from the last hit instead of the insert
   * @param maxBytes the bound in bytes; 0 disables the cache
   */
  public DirCache(Duration ttl, boolean sliding, long maxBytes, Ticker ticker) {
    this.enabled = maxBytes > 0;
    Caffeine<String, DirState> b = Caches.newBuilder()
        .ticker(ticker)
        .maximumWeight(Math.max(1, maxBytes))
        .weigher((String k, DirState v) -> (int) Math.min(Integer.MAX_VALUE, Footprint.string(k) + v.weight()));
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

  public boolean enabled() {
    return enabled;
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
      s.put(name, node);
    }
  }

  /** Records a removed child in a cached listing. */
  public void childRemoved(String dir, String name) {
    DirState s = enabled ? cache.asMap().get(dir) : null; // a map read: not a lookup in the hit/miss statistics
    if (s != null) {
      s.remove(name);
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

  /** The bytes the cached listings weigh now (approximate). */
  public long weightedSize() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }
}
