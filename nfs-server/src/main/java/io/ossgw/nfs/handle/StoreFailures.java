package io.ossgw.nfs.handle;

import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.nfsstat3;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What an NFS client is answered when the cluster store behind the shared handle table fails
 * ({@link ClusterStoreException}, issue 23), and the log of it.
 *
 * <ul>
 *   <li>{@code UNREACHABLE} (refused, reset, no reply in time, the store loading its data after a restart): "try
 *       again later", NFS3ERR_JUKEBOX (RFC 1813 §2.6) / NFS4ERR_DELAY (RFC 8881 §15.1.1.3). The store comes back by
 *       itself, and the client's call then succeeds.
 *   <li>{@code FULL} (maxmemory reached, noeviction): NFS3ERR_NOSPC / NFS4ERR_NOSPC ({@code ENOSPC}: "No space left on
 *       device"). A full store does not empty itself, so "try later" would hang the client's process in an endless
 *       retry; names already numbered go on working, only a name that needs a new number is refused.
 *   <li>{@code AUTH}, {@code OTHER} (a wrong password after a rotation, a read-only replica, a script error):
 *       NFS3ERR_IO / NFS4ERR_IO, for the same reason: nothing will change until an operator acts.
 * </ul>
 *
 * Never a guessed handle: the caller answers the status and changes nothing. One log line per kind at most every
 * {@link #LOG_EVERY_NANOS} (10 s), with how many failures it stands for, so a full store does not write a line per
 * NFS call.
 */
public final class StoreFailures {
  /** Least time between two log lines of one kind, in nanoseconds: 10 s. */
  public static final long LOG_EVERY_NANOS = 10_000_000_000L;
  private static final System.Logger LOG = System.getLogger(StoreFailures.class.getName());

  private final LongSupplier nanoTime;
  private final Map<ClusterStoreException.Kind, long[]> lastLogged = new EnumMap<>(ClusterStoreException.Kind.class);

  /** @param nanoTime the clock of the log's rate limit ({@code System::nanoTime}; tests pass their own) */
  public StoreFailures(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** The nfsstat3 answered for a failure: JUKEBOX, NOSPC or IO (see the class). */
  public static int nfs3Status(ClusterStoreException e) {
    return switch (e.kind()) {
      case UNREACHABLE -> nfsstat3.NFS3ERR_JUKEBOX;
      case FULL -> nfsstat3.NFS3ERR_NOSPC;
      case AUTH, OTHER -> nfsstat3.NFS3ERR_IO;
    };
  }

  /** The nfsstat4 answered for a failure: DELAY, NOSPC or IO (see the class). */
  public static int nfs4Status(ClusterStoreException e) {
    return switch (e.kind()) {
      case UNREACHABLE -> Nfs4.NFS4ERR_DELAY;
      case FULL -> Nfs4.NFS4ERR_NOSPC;
      case AUTH, OTHER -> Nfs4.NFS4ERR_IO;
    };
  }

  /**
   * Logs a failure unless one of its kind was logged less than 10 s ago; a line written after quiet ones says how
   * many it stands for.
   *
   * @param call what the client asked (e.g. "NFS procedure 3", "NFSv4 operation 15")
   * @param e the store's failure (its message names the store and what it answered, never the password)
   * @param answered the status name the client got
   * @return true if a line was written
   */
  public boolean log(String call, ClusterStoreException e, String answered) {
    long now = nanoTime.getAsLong();
    long suppressed;
    synchronized (lastLogged) {
      long[] last = lastLogged.computeIfAbsent(e.kind(), k -> new long[] {now - LOG_EVERY_NANOS, 0});
      if (now - last[0] < LOG_EVERY_NANOS) {
        last[1]++;
        return false;
      }
      suppressed = last[1];
      last[0] = now;
      last[1] = 0;
    }
    System.Logger.Level level = e.kind() == ClusterStoreException.Kind.UNREACHABLE
        ? System.Logger.Level.WARNING : System.Logger.Level.ERROR;
    LOG.log(level, call + ": " + e.getMessage() + "; answered " + answered
        + (suppressed > 0 ? " (and " + suppressed + " more such failures in the last " + LOG_EVERY_NANOS / 1_000_000_000L
            + " s or more, not logged)" : ""));
    return true;
  }
}
