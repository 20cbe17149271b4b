package io.ossgw.nfs.fs;

import com.github.benmanes.caffeine.cache.Cache;
import io.ossgw.core.cache.Caches;
import io.ossgw.core.cache.Footprint;
import io.ossgw.core.vfs.DirPage;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * READDIR positions for NFSv3 READDIR/READDIRPLUS (RFC 1813 §3.3.16) and NFSv4.1 READDIR (RFC 8881 §18.23), over the
 * engine's paged listing (issue 21: nothing holds a whole directory). A listing started at cookie 0 opens a session
 * whose id is the cookieverf; the session remembers the position ({@link io.ossgw.core.vfs.DirEntry#position()}) behind
 * the cookies it handed out, and a later page resumes after that position with a paged readdir of the engine, so
 * entries created or removed between pages neither shift positions nor cause NFS3ERR_BAD_COOKIE: an entry that existed
 * throughout is returned exactly once, and new ones appear if they sort after the position.
 *
 * <p>What a session remembers is bounded whatever the directory holds: every cookie of the last reply (up to {@value
 * #RECENT} of them, and its last one: what a client resumes from, or re-reads), and a checkpoint every {@value
 * #CHECKPOINT_EVERY} entries, spaced twice as far whenever there would be more than {@value #MAX_CHECKPOINTS}. A cookie from further back (a
 * client whose cache dropped an early page of a huge directory) resumes after the checkpoint before it and skips the
 * entries in between: positional over that stretch. Sessions are weighed in bytes (the positions they hold) against
 * the bound given.
 *
 * <p>A verifier this server does not know (evicted, or issued before a restart) is never refused: the cookie is taken
 * as an index into the current listing and a new session continues from there.
 *
 * <p>Cookie values: 1 is ".", 2 is "..", and 3 + k the k-th entry of the session (so they stay below 2^31 for 32-bit
 * clients). NFSv4 has no "." and ".." entries and reserves cookies 1 and 2 (RFC 8881 §18.23.3), so its first entry is
 * cookie 3 as well: a v4 listing starts at {@link #FIRST} and never hands out 1 or 2. Thread-safe.
 */
public final class DirCursors {
  /** Cookie of "." (the last dot entry is {@link #DOTDOT}). */
  public static final long DOT = 1;
  public static final long DOTDOT = 2;
  /** Cookie of the first real entry. */
  public static final long FIRST = 3;
  /** Positions of the last reply kept exactly. */
  static final int RECENT = 4096;
  /** Entries between two checkpoints at most (before thinning). */
  static final int CHECKPOINT_EVERY = 256;
  /** Checkpoints a session keeps at most. */
  static final int MAX_CHECKPOINTS = 1024;

  private static final class Session {
    final int exportId;
    final long dirFileid;
    /** index -> position of the entries of the last reply (its first RECENT). */
    long recentBase;
    List<String> recent = new ArrayList<>();
    /** The last entry of the last reply (where a client resumes). */
    long lastIndex = -1;
    String lastPosition;
    /** index -> position of every spacing-th entry. */
    final TreeMap<Long, String> checkpoints = new TreeMap<>();
    long spacing = CHECKPOINT_EVERY;
    /** The heap the session holds (its positions), kept up to date as they come and go. */
    long bytes = 192;

    Session(int exportId, long dirFileid) {
      this.exportId = exportId;
      this.dirFileid = dirFileid;
    }

    synchronized String positionOf(long index) {
      if (index >= recentBase && index < recentBase + recent.size()) {
        return recent.get((int) (index - recentBase));
      }
      return index == lastIndex ? lastPosition : checkpoints.get(index);
    }

    synchronized Map.Entry<Long, String> checkpointAtOrBefore(long index) {
      return checkpoints.floorEntry(index);
    }

    synchronized void startReply(long index) {
      for (String p : recent) {
        bytes -= Footprint.string(p) + 8;
      }
      recentBase = index;
      recent = new ArrayList<>();
    }

    synchronized void handedOut(long index, String position) {
      if (recent.size() < RECENT && index == recentBase + recent.size()) {
        recent.add(position);
        bytes += Footprint.string(position) + 8;
      }
      if (index % spacing == 0) {
        String old = checkpoints.put(index, position);
        bytes += Footprint.string(position) + 48 - (old == null ? 0 : Footprint.string(old) + 48);
        while (checkpoints.size() > MAX_CHECKPOINTS) { // thin evenly: every (2 x spacing)-th entry stays
          spacing *= 2;
          long s = spacing;
          for (var it = checkpoints.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey() % s != 0) {
              bytes -= Footprint.string(e.getValue()) + 48;
              it.remove();
            }
          }
        }
      }
    }

    synchronized void endReply(long last, String position) {
      if (position != null) {
        bytes += Footprint.string(position) - Footprint.string(lastPosition);
        lastIndex = last;
        lastPosition = position;
      }
    }
  }

  private final Cache<Long, Session> sessions;
  private final AtomicLong nextId;

  /**
   * @param maxBytes heap all sessions may hold together (each weighed by the positions it keeps)
   * @param idle how long a session lives without use
   */
  public DirCursors(long maxBytes, Duration idle) {
    this.sessions = Caches.newBuilder().maximumWeight(maxBytes)
        .weigher((Long k, Session s) -> (int) Math.min(Integer.MAX_VALUE, s.bytes + 128)).expireAfterAccess(idle).build();
    long seed = new SecureRandom().nextLong() & 0x3fffffffffffffffL;
    this.nextId = new AtomicLong(seed == 0 ? 1 : seed);
  }

  /**
   * Where a reply starts, and how to number its entries: the entries to put in it are those of the engine's listing
   * after {@link #after} (null: from the start), less the first {@link #skip} of them.
   */
  public final class Page {
    /** The cookie verifier of the session this page belongs to (the client sends it back with later cookies). */
    public final long verifier;
    /** The first cookie of the page: DOT, DOTDOT or FIRST (real entries follow the dots). */
    public final long startCookie;
    /** The position the page's real entries follow, or null for the directory's first entry. */
    public final String after;
    /** Entries after {@link #after} to leave out first (a position known only by its index). */
    public final long skip;
    private final Session session;
    private long next;
    private String lastPosition;

    private Page(long verifier, Session session, long startCookie, String after, long skip, long next) {
      this.verifier = verifier;
      this.session = session;
      this.startCookie = startCookie;
      this.after = after;
      this.skip = skip;
      this.next = next;
    }

    /** The cookie of the next real entry put in the reply, remembering its position. */
    public long cookieOf(String position) {
      if (lastPosition == null) {
        session.startReply(next); // the reply before stays the session's last until this one has an entry
      }
      long idx = next++;
      session.handedOut(idx, position);
      lastPosition = position;
      return FIRST + idx;
    }

    /** The reply is complete: remembers where it ended and weighs the session again. */
    public void end() {
      session.endReply(next - 1, lastPosition);
      sessions.put(verifier, session); // re-weighed by what it holds now
    }
  }

  /**
   * The start of a reply after {@code cookie}.
   *
   * @param verifier the client's cookieverf (ignored for cookie 0)
   */
  public Page start(int exportId, long dirFileid, long cookie, long verifier) {
    if (cookie == 0) {
      return open(exportId, dirFileid, DOT, null, 0, 0);
    }
    if (cookie == DOT || cookie == DOTDOT) {
      Session s = known(exportId, dirFileid, verifier);
      long start = cookie == DOT ? DOTDOT : FIRST;
      return s != null ? new Page(verifier, s, start, null, 0, 0) : open(exportId, dirFileid, start, null, 0, 0);
    }
    long k = cookie - FIRST; // the last entry the client has
    Session s = known(exportId, dirFileid, verifier);
    if (s != null && k >= 0) {
      String last = s.positionOf(k);
      if (last != null) {
        return new Page(verifier, s, FIRST, last, 0, k + 1);
      }
      Map.Entry<Long, String> cp = s.checkpointAtOrBefore(k);
      if (cp != null) {
        return new Page(verifier, s, FIRST, cp.getValue(), k - cp.getKey(), k + 1);
      }
      return new Page(verifier, s, FIRST, null, k + 1, k + 1);
    }
    // unknown verifier or cookie: take the cookie as a position in the current listing
    long idx = Math.max(k + 1, 0);
    return open(exportId, dirFileid, FIRST, null, idx, idx);
  }

  private Session known(int exportId, long dirFileid, long verifier) {
    Session s = verifier == 0 ? null : sessions.getIfPresent(verifier);
    return s != null && s.exportId == exportId && s.dirFileid == dirFileid ? s : null;
  }

  private Page open(int exportId, long dirFileid, long startCookie, String after, long skip, long next) {
    Session s = new Session(exportId, dirFileid);
    long id = nextId.incrementAndGet();
    sessions.put(id, s);
    return new Page(id, s, startCookie, after, skip, next);
  }

  /** Compares by Unicode code points, which orders like the UTF-8 bytes OSS sorts keys by ({@link DirPage#compare}). */
  public static int compare(String a, String b) {
    return DirPage.compare(a, b);
  }
}
