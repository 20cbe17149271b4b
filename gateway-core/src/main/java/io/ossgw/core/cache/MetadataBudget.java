package io.ossgw.core.cache;

/**
 * The heap the engine's metadata caches may hold, in bytes, derived once at start-up from {@code max_stat_cache_size}
 * and the JVM's heap (which the launcher sizes from {@code memory_limit}: half of it, SEMANTICS.md "Memory"). The share
 * is the smaller of {@code max_stat_cache_size} entries at ossfs's own estimate of {@value #OSSFS_ENTRY_BYTES} bytes an
 * entry (its help text: 100,000 entries "about 40 MB") and an eighth of the heap. The stat cache gets the share; the
 * listings get as much again, half for whole listings of directories small enough to keep and half for the window of
 * listing pages of the big ones, which are streamed page by page: at most a quarter of the heap in all, whatever the
 * directories hold. A directory is kept whole when its listing weighs at most half of the smaller of the two halves,
 * so that the pages fetched before a directory turns out too big fit in the window.
 *
 * @param statBytes bound of the stat cache (path -> attributes, and "no such file"), 0 when caching is off
 * @param listingBytes bound of the whole listings kept, 0 when caching is off
 * @param windowBytes bound of the listing pages of streamed directories (always at least {@link #MIN_WINDOW}: paging
 *     needs it even with caching off)
 * @param wholeDirBytes the heaviest listing kept whole
 */
public record MetadataBudget(long statBytes, long listingBytes, long windowBytes, long wholeDirBytes) {
  /** ossfs's estimate of one stat cache entry. */
  public static final long OSSFS_ENTRY_BYTES = 400;
  /** The least window: a few ListObjectsV2 pages of 1,000 entries (about 0.4-0.7 MB each). */
  public static final long MIN_WINDOW = 4L << 20;

  /**
   * @param maxStatCacheSize {@code max_stat_cache_size} (entries; 0 turns caching off)
   * @param heapBytes the JVM's maximum heap ({@code Runtime.maxMemory()})
   */
  public static MetadataBudget of(long maxStatCacheSize, long heapBytes) {
    long share = Math.min(Math.multiplyExact(Math.max(0, maxStatCacheSize), OSSFS_ENTRY_BYTES), heapBytes / 8);
    long listings = share / 2;
    long window = Math.max(MIN_WINDOW, share / 2);
    return new MetadataBudget(share, listings, window, Math.min(listings, window) / 2);
  }

  /** The budget of this JVM's heap. */
  public static MetadataBudget forHeap(long maxStatCacheSize) {
    return of(maxStatCacheSize, Runtime.getRuntime().maxMemory());
  }

  /** One line for the start-up log. */
  public String describe() {
    return String.format(java.util.Locale.ROOT,
        "metadata caches: stat %.1f MB, listings %.1f MB (a directory of at most %.1f MB kept whole), listing window %.1f MB",
        statBytes / 1048576.0, listingBytes / 1048576.0, wholeDirBytes / 1048576.0, windowBytes / 1048576.0);
  }
}
