package io.ossgw.nfs.fs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.ossgw.core.vfs.DirEntry;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * READDIR positions for NFSv3 READDIR/READDIRPLUS (RFC 1813 §3.3.16) and NFSv4.1 READDIR (RFC 8881 §18.23). A listing started at cookie 0 opens a session whose id is the
 * cookieverf; the session remembers the name behind every cookie it handed out. A later page resumes after that
 * name in the directory's current listing (binary search in OSS's UTF-8 byte order), so entries created or removed
 * between pages neither shift positions nor cause NFS3ERR_BAD_COOKIE: an entry that existed throughout is returned
 * exactly once, and new ones appear if they sort after the position.
 *
 * <p>A verifier this server does not know (evicted, or issued before a restart) is never refused: the cookie is taken
 * as an index into the current listing and a new session continues from there.
 *
 * <p>Cookie values: 1 is ".", 2 is "..", and 3 + k the k-th name of the session (so they stay below 2^31 for 32-bit
 * clients). NFSv4 has no "." and ".." entries and reserves cookies 1 and 2 (RFC 8881 §18.23.3), so its first entry
 * is cookie 3 as well: a v4 listing starts at {@link #FIRST} and never hands out 1 or 2. Thread-safe.
 */
public final class DirCursors {
  /** Cookie of "." (the last dot entry is {@link #DOTDOT}). */
  public static final long DOT = 1;
  public static final long DOTDOT = 2;
  /** Cookie of the first real entry. */
  public static final long FIRST = 3;

  private static final class Session {
    final int exportId;
    final long dirFileid;
    final int weight;
    final List<String> names = new ArrayList<>();

    Session(int exportId, long dirFileid, int listingSize) {
      this.exportId = exportId;
      this.dirFileid = dirFileid;
      this.weight = Math.max(1, listingSize);
    }
  }

  private final Cache<Long, Session> sessions;
  private final AtomicLong nextId;

  /**
   * @param maxNames most names remembered over all sessions (a session weighs its listing's size when opened)
   * @param idle how long a session lives without use
   */
  public DirCursors(long maxNames, Duration idle) {
    this.sessions = Caffeine.newBuilder().maximumWeight(maxNames)
        .weigher((Long k, Session s) -> s.weight).expireAfterAccess(idle).build();
    long seed = new SecureRandom().nextLong() & 0x3fffffffffffffffL;
    this.nextId = new AtomicLong(seed == 0 ? 1 : seed);
  }

  /** Where a page starts, and how to number its entries. */
  public final class Page {
    /** The cookie verifier of the session this page belongs to (the client sends it back with later cookies). */
    public final long verifier;
    /** The first cookie of the page: DOT, DOTDOT or FIRST (real entries from {@link #startIndex}). */
    public final long startCookie;
    /** Index of the first real entry of the page in the listing. */
    public final int startIndex;
    private final Session session;
    private int next;

    private Page(long verifier, Session session, long startCookie, int startIndex, int next) {
      this.verifier = verifier;
      this.session = session;
      this.startCookie = startCookie;
      this.startIndex = startIndex;
      this.next = next;
    }

    /** The cookie of the next real entry returned, remembering its name. */
    public long cookieOf(String name) {
      synchronized (session) {
        List<String> n = session.names;
        int idx;
        if (next < n.size() && n.get(next).equals(name)) {
          idx = next; // a page read again: same cookies
        } else {
          idx = n.size();
          n.add(name);
        }
        next = idx + 1;
        return FIRST + idx;
      }
    }
  }

  /**
   * The start of a page of {@code listing} (sorted as OSS lists) after {@code cookie}.
   *
   * @param verifier the client's cookieverf (ignored for cookie 0)
   */
  public Page start(int exportId, long dirFileid, long cookie, long verifier, List<DirEntry> listing) {
    if (cookie == 0) {
      return open(exportId, dirFileid, listing.size(), DOT, 0, 0);
    }
    if (cookie == DOT) {
      return resume(exportId, dirFileid, verifier, listing.size(), DOTDOT, 0, 0);
    }
    if (cookie == DOTDOT) {
      return resume(exportId, dirFileid, verifier, listing.size(), FIRST, 0, 0);
    }
    long k = cookie - FIRST;
    Session s = verifier == 0 ? null : sessions.getIfPresent(verifier);
    if (s != null && s.exportId == exportId && s.dirFileid == dirFileid) {
      String last;
      synchronized (s) {
        last = k >= 0 && k < s.names.size() ? s.names.get((int) k) : null;
      }
      if (last != null) {
        return new Page(verifier, s, FIRST, after(listing, last), (int) k + 1);
      }
    }
    // unknown verifier or cookie: take the cookie as a position in the current listing
    int idx = (int) Math.min(Math.max(k + 1, 0), listing.size());
    Page p = open(exportId, dirFileid, listing.size(), FIRST, idx, idx);
    synchronized (p.session) {
      for (int i = 0; i < idx; i++) {
        p.session.names.add(listing.get(i).name());
      }
    }
    return p;
  }

  private Page resume(int exportId, long dirFileid, long verifier, int size, long startCookie, int idx, int next) {
    Session s = verifier == 0 ? null : sessions.getIfPresent(verifier);
    if (s != null && s.exportId == exportId && s.dirFileid == dirFileid) {
      return new Page(verifier, s, startCookie, idx, next);
    }
    return open(exportId, dirFileid, size, startCookie, idx, next);
  }

  private Page open(int exportId, long dirFileid, int size, long startCookie, int idx, int next) {
    Session s = new Session(exportId, dirFileid, size);
    long id = nextId.incrementAndGet();
    sessions.put(id, s);
    return new Page(id, s, startCookie, idx, next);
  }

  /** Index of the first entry whose name sorts after {@code name} (UTF-8 byte order = code point order). */
  public static int after(List<DirEntry> listing, String name) {
    int lo = 0;
    int hi = listing.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compare(listing.get(mid).name(), name) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Compares by Unicode code points, which orders like the UTF-8 bytes OSS sorts keys by. */
  public static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
