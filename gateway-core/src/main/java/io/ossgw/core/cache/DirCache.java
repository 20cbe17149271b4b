package io.ossgw.core.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Directory path -> {@link DirState}: the cache of whole listings. Same TTL as the stat cache; bounded in bytes (each
 * listing weighed by {@link DirState#weight()} when cached) by its share of the memory budget ({@link
 * MetadataBudget#listingBytes()}). Directories too big to keep whole never enter it: the engine streams them through
 * its {@link ListingWindow}.
 *
 * <p>A listing is fetched between {@link #begin} and {@link #finish}: the changes the engine records for that directory
 * meanwhile ({@link #childChanged}, {@link #childRemoved}) are replayed onto it before it is cached, so a file created
 * while its directory was being listed is not lost from the listing when the LIST did not see it yet, and a directory
 * invalidated meanwhile (a rename of it) is not cached from the older LIST. Directories in which a name was found
 * missing ({@link #recordMiss}) and what the last listing of a directory made for lookups cost and answered ({@link
 * #recordLookupsListing}) are remembered for the TTL: the engine lists the first to answer their next missing names,
 * unless the second says it was not worth it ({@link #worthListingForLookups}).
 */
public final class DirCache {
  /**
   * How long a listing made to answer lookups ({@link DirState#forLookups}) is trusted, at most: names other clients
   * create in the directory show after this long at the latest, as a FUSE kernel's {@code negative_timeout} (5 s).
   */
  public static final Duration LOOKUPS_TTL = Duration.ofSeconds(5);

  private final Cache<String, DirState> cache;
  private final Cache<String, LookupTally> tallies;
  private final Cache<String, Boolean> missed;
  private final boolean enabled;
  /** Directory -> the listings of it in flight; guarded by {@code this}. */
  private final Map<String, List<Load>> loads = new ConcurrentHashMap<>();

  /** A child changed ({@code node}) or removed ({@code node} null) while a listing was in flight. */
  private record Change(String name, Node node) {}

  /** A listing in flight: the changes recorded since it began, in order; guarded by the cache. */
  public static final class Load {
    private final String dir;
    private final List<Change> changes = new ArrayList<>();
    private boolean invalidated;

    private Load(String dir) {
      this.dir = dir;
    }
  }

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
    long full = ttl == null ? Long.MAX_VALUE : ttl.toNanos();
    long forLookups = Math.min(full, LOOKUPS_TTL.toNanos());
    b.expireAfter(new Expiry<String, DirState>() {
      @Override
      public long expireAfterCreate(String dir, DirState s, long now) {
        return s.forLookups() ? forLookups : full;
      }

      @Override
      public long expireAfterUpdate(String dir, DirState s, long now, long left) {
        return expireAfterCreate(dir, s, now); // a new listing of the directory
      }

      @Override
      public long expireAfterRead(String dir, DirState s, long now, long left) {
        return sliding && !s.forLookups() ? full : left; // stat_cache_interval_expire slides a readdir's listing
      }
    });
    io.ossgw.core.observe.Observation.recordStats(b, "dir"); // hits/misses/evictions for metrics
    this.cache = b.build();
    Caffeine<Object, Object> t = Caches.newBuilder().ticker(ticker).maximumSize(10_000);
    if (ttl != null) {
      t.expireAfterWrite(ttl);
    }
    this.tallies = t.build();
    this.missed = t.build();
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

  /**
   * Starts a listing of {@code dir}: the changes recorded from now on are kept for {@link #finish}. Every begin is
   * followed by {@link #finish} or {@link #abandon}.
   */
  public Load begin(String dir) {
    Load l = new Load(dir);
    synchronized (this) {
      loads.computeIfAbsent(dir, k -> new ArrayList<>()).add(l);
    }
    return l;
  }

  /**
   * Ends a listing begun with {@link #begin}: the changes recorded since are applied to {@code state}, which is then
   * cached unless the directory was invalidated meanwhile.
   *
   * @return {@code state}, with those changes
   */
  public synchronized DirState finish(Load l, DirState state) {
    end(l);
    for (Change c : l.changes) {
      applyTo(state, c.name(), c.node());
    }
    if (!l.invalidated) {
      put(l.dir, state);
    }
    return state;
  }

  /** Ends a listing begun with {@link #begin} that is not cached (it failed, or the directory is too big). */
  public synchronized void abandon(Load l) {
    end(l);
  }

  private void end(Load l) {
    List<Load> of = loads.get(l.dir);
    if (of != null && of.remove(l) && of.isEmpty()) {
      loads.remove(l.dir);
    }
  }

  /** Records a new or changed child in a cached listing (no-op if the directory is not cached). */
  public void childChanged(String dir, String name, Node node) {
    if (!loads.isEmpty()) {
      synchronized (this) {
        for (Load l : loads.getOrDefault(dir, List.of())) {
          l.changes.add(new Change(name, node));
        }
        apply(dir, name, node);
      }
      return;
    }
    apply(dir, name, node);
  }

  /** Records a removed child in a cached listing. */
  public void childRemoved(String dir, String name) {
    childChanged(dir, name, null);
  }

  private void apply(String dir, String name, Node node) {
    DirState s = enabled ? cache.asMap().get(dir) : null; // a map read: not a lookup in the hit/miss statistics
    if (s != null) {
      applyTo(s, name, node);
    }
  }

  private static void applyTo(DirState s, String name, Node node) {
    if (node == null) {
      s.remove(name);
    } else {
      s.put(name, node);
    }
  }

  /** Drops the listing of {@code dir}; a listing of it in flight is not cached when it ends. */
  public void invalidate(String dir) {
    if (!loads.isEmpty()) { // lock-free otherwise: every unlink calls this
      synchronized (this) {
        loads.getOrDefault(dir, List.of()).forEach(l -> l.invalidated = true);
        cache.invalidate(dir);
      }
      return;
    }
    cache.invalidate(dir);
  }

  /** Drops the listing of {@code dir} and of every directory below it. */
  public void invalidateTree(String dir) {
    String below = "/".equals(dir) ? "/" : dir + "/";
    synchronized (this) {
      loads.forEach((k, ls) -> {
        if (k.equals(dir) || k.startsWith(below)) {
          ls.forEach(l -> l.invalidated = true);
        }
      });
      cache.asMap().keySet().removeIf(k -> k.equals(dir) || k.startsWith(below));
    }
  }

  /** Remembers for the TTL that a name was found missing in {@code dir} by asking OSS. */
  public void recordMiss(String dir) {
    if (enabled) {
      missed.put(dir, Boolean.TRUE);
    }
  }

  /** Whether {@link #recordMiss} was called for {@code dir} within the TTL. */
  public boolean missedIn(String dir) {
    return missed.getIfPresent(dir) != null;
  }

  /**
   * Remembers for the TTL what the latest listing of {@code dir} made for lookups cost, and counts what it answers; a
   * directory found too big to list for lookups is recorded with a tally that never pays off.
   */
  public void recordLookupsListing(String dir, LookupTally tally) {
    if (enabled) {
      tallies.put(dir, tally);
    }
  }

  /**
   * Whether listing {@code dir} for lookups is worth it: it was never listed so within the TTL, or its latest such
   * listing answered at least one lookup per page ({@link LookupTally#paidOff}).
   */
  public boolean worthListingForLookups(String dir) {
    LookupTally t = tallies.getIfPresent(dir);
    return t == null || t.paidOff();
  }

  /** The bytes the cached listings weigh now (approximate). */
  public long weightedSize() {
    return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
  }
}
