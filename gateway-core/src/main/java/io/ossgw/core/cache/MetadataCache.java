package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import java.time.Duration;
import java.util.Optional;

/**
 * Path -> resolved {@link Node} (or "no such file"), the engine's stat cache and negative cache in one Caffeine cache
 * (ossfs {@code stat_cache_expire}, {@code stat_cache_interval_expire}, {@code max_stat_cache_size},
 * {@code disable_noobj_cache}). Each entry carries the ETag it came from (in its attributes) and the ticker time it was
 * loaded, so listing data that is older never replaces it.
 *
 * <p>Time comes from an injected {@link Ticker} so tests move the clock instead of sleeping.
 */
public final class MetadataCache {
  /** A cached answer: {@code node == null} means ENOENT. */
  public record Entry(Node node, long loadedAtNanos) {
    public boolean negative() {
      return node == null;
    }
  }

  private final Cache<String, Entry> cache;
  private final Ticker ticker;
  private final boolean negative;
  private final boolean enabled;

  /**
   * @param ttl entry lifetime, or null for no expiry
   * @param sliding TTL counted from the last hit instead of the insert
   * @param maxBytes the bound in bytes of the heap the entries hold ({@link MetadataBudget#statBytes()}, each entry
   *     weighed by {@link #weigh}); 0 disables caching
   * @param negative cache ENOENT answers
   */
  public MetadataCache(Duration ttl, boolean sliding, long maxBytes, boolean negative, Ticker ticker) {
    this.ticker = ticker;
    this.negative = negative;
    this.enabled = maxBytes > 0;
    Caffeine<String, Entry> b = Caches.newBuilder().ticker(ticker).maximumWeight(Math.max(1, maxBytes))
        .weigher(MetadataCache::weigh);
    if (ttl != null) {
      if (sliding) {
        b.expireAfterAccess(ttl);
      } else {
        b.expireAfterWrite(ttl);
      }
    }
    io.ossgw.core.observe.Observation.recordStats(b, "stat"); // hits/misses/evictions for metrics
    this.cache = b.build();
  }

  /** The heap one entry holds, in bytes: the path, the entry and its node (or nothing more for "no such file"). */
  static int weigh(String path, Entry e) {
    return (int) (Footprint.CACHE_ENTRY + Footprint.string(path) + 24 + (e.node() == null ? 0 : Footprint.node(e.node())));
  }

  /** The current ticker time in nanoseconds (the clock entries are stamped with). */
  public long now() {
    return ticker.read();
  }

  /** The cached answer for a path, if any and not expired. */
  public Optional<Entry> get(String path) {
    return enabled ? Optional.ofNullable(cache.getIfPresent(path)) : Optional.empty();
  }

  /** Caches a resolved node, stamped now. */
  public void put(String path, Node node) {
    if (enabled) {
      cache.put(path, new Entry(node, ticker.read()));
    }
  }

  /**
   * Caches a node learnt at {@code loadedAtNanos} (e.g. when a LIST started), unless a newer entry is already there:
   * a listing never overwrites a newer entry.
   */
  public void putIfNewer(String path, Node node, long loadedAtNanos) {
    if (enabled) {
      cache.asMap().compute(path, (k, old) -> old != null && old.loadedAtNanos() > loadedAtNanos ? old : new Entry(node, loadedAtNanos));
    }
  }

  /** Caches "no such file" (if the negative cache is on). */
  public void putNegative(String path) {
    if (enabled && negative) {
      cache.put(path, new Entry(null, ticker.read()));
    }
  }

  public void invalidate(String path) {
    cache.invalidate(path);
  }

  /** Drops {@code path} and everything below it (directory rename and delete). */
  public void invalidateTree(String path) {
    String below = "/".equals(path) ? "/" : path + "/";
    cache.asMap().keySet().removeIf(k -> k.equals(path) || k.startsWith(below));
  }

  public void invalidateAll() {
    cache.invalidateAll();
  }

  /** Number of entries (approximate). */
  public long size() {
    return cache.estimatedSize();
  }
}
