package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.Nfs4;
import java.time.Clock;
import java.time.Duration;

/**
 * The grace period after a server start (RFC 8881 §8.4.2): while it runs, clients reclaim the opens and locks they
 * held before the restart (OPEN CLAIM_PREVIOUS, LOCK with reclaim set) and new opens and locks wait
 * (NFS4ERR_GRACE); after it, a reclaim is NFS4ERR_NO_GRACE. It ends after its length, or earlier by {@link #end()}
 * (when every client known from before the restart has sent RECLAIM_COMPLETE). Thread-safe.
 */
public final class Grace {
  private final Clock clock;
  private volatile long endMillis;

  /**
   * @param clock the lease clock
   * @param length how long the grace period lasts from now; {@link Duration#ZERO} for none (a first start with no
   *     clients to reclaim)
   */
  public Grace(Clock clock, Duration length) {
    this.clock = clock;
    this.endMillis = clock.millis() + length.toMillis();
  }

  /** Whether the grace period is running. */
  public boolean active() {
    return clock.millis() < endMillis;
  }

  /** Ends the grace period now. */
  public void end() {
    endMillis = Long.MIN_VALUE;
  }

  /**
   * For a reclaim (CLAIM_PREVIOUS, LOCK reclaim).
   *
   * @throws Nfs4Exception NFS4ERR_NO_GRACE when the grace period is over
   */
  public void checkReclaim() {
    if (!active()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NO_GRACE, "grace period over: nothing can be reclaimed");
    }
  }

  /**
   * For new state that could conflict with a reclaim (OPEN other than CLAIM_PREVIOUS/CLAIM_FH of an open file, LOCK
   * without reclaim, SETATTR of size).
   *
   * @throws Nfs4Exception NFS4ERR_GRACE while the grace period runs
   */
  public void checkNonReclaim() {
    if (active()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_GRACE, "in the grace period: only reclaims are served");
    }
  }
}
