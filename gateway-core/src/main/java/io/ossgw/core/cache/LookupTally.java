package io.ossgw.core.cache;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a directory's listing made to answer lookups ({@link DirState#forLookups}) cost, in ListObjectsV2 pages, and
 * what it earned, in lookups answered while it lived. The engine lists a directory for lookups again only when its
 * last such listing answered at least one lookup per page ({@link #paidOff}), so names created now and then in a
 * directory of several pages keep their one request each instead of costing a listing each (SEMANTICS.md "Caches").
 * Thread-safe.
 */
public final class LookupTally {
  private final int pages;
  /** Starts at 1: the lookup the listing was made for, counted before the listing is published (see MissListingTest). */
  private final AtomicInteger answers = new AtomicInteger(1);

  /**
   * A tally whose listing has answered the lookup it was made for. Counted from the start so that a lookup deciding
   * whether to list meanwhile never sees a fresh listing as one that paid nothing.
   *
   * @param pages the ListObjectsV2 pages the listing cost (at least 1)
   */
  public LookupTally(int pages) {
    this.pages = Math.max(1, pages);
  }

  /** Counts a lookup the listing answered (the name found in it, or missing from it). */
  public void answered() {
    answers.incrementAndGet();
  }

  /** The lookups the listing answered so far. */
  public int answers() {
    return answers.get();
  }

  /** Whether the listing answered at least one lookup per page it cost. */
  public boolean paidOff() {
    return answers.get() >= pages;
  }
}
