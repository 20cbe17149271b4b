package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.Nfs4;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The grace period after a server start (RFC 8881 §8.4.2, §8.6.3): while it runs, clients reclaim the opens and locks
 * they held before the restart (OPEN CLAIM_PREVIOUS, LOCK with reclaim set) and new opens and locks wait
 * (NFS4ERR_GRACE); after it, a reclaim is NFS4ERR_NO_GRACE.
 *
 * <p>Who may reclaim: the client owners (co_ownerid) that held state before the restart ({@link ClientStore}); a
 * reclaim by any other client is NFS4ERR_RECLAIM_BAD, and by a client that already sent RECLAIM_COMPLETE
 * NFS4ERR_NO_GRACE (as the Linux server answers, nfs4_check_open_reclaim). The period ends after its length, or as
 * soon as every one of those owners has sent RECLAIM_COMPLETE ({@link #reclaimComplete}), or by {@link #end()}; a
 * server that knew no client starts without one. Thread-safe.
 */
public final class Grace {
  private final Clock clock;
  private volatile long endMillis;
  /** The period runs at least until this, whatever the NFSv4.1 clients do ({@link #runAtLeast}). */
  private volatile long floorMillis = Long.MIN_VALUE;
  /** Owners that may reclaim; null: any client (a grace without a record of clients, in tests). */
  private final Set<ByteBuffer> reclaimers;
  /** Reclaimers that have not sent RECLAIM_COMPLETE yet. */
  private final Set<ByteBuffer> pending;
  private final Runnable onEnd;
  private final AtomicBoolean ended = new AtomicBoolean();

  /**
   * A grace period in which any client may reclaim.
   *
   * @param clock the lease clock
   * @param length how long the grace period lasts from now; {@link Duration#ZERO} for none
   */
  public Grace(Clock clock, Duration length) {
    this(clock, length, null, () -> {});
  }

  /**
   * A grace period for the clients known from before a restart.
   *
   * @param clock the lease clock
   * @param length the longest it lasts from now ({@link Duration#ZERO}: none)
   * @param owners the client owners that may reclaim (co_ownerid bytes); an empty set means no grace at all
   * @param onEnd run once when the period is seen to be over (by time, RECLAIM_COMPLETE or {@link #end()})
   */
  public Grace(Clock clock, Duration length, Set<ByteBuffer> owners, Runnable onEnd) {
    this.clock = clock;
    this.reclaimers = owners == null ? null : Set.copyOf(owners);
    this.pending = owners == null ? new HashSet<>() : new HashSet<>(owners);
    this.onEnd = onEnd;
    this.endMillis = owners != null && owners.isEmpty() ? Long.MIN_VALUE : clock.millis() + length.toMillis();
  }

  /**
   * Keeps the period running for {@code length} from now even when no NFSv4.1 client may reclaim or all sent
   * RECLAIM_COMPLETE: NLM hosts sent SM_NOTIFY reclaim in it too, and send no RECLAIM_COMPLETE (XNFS chapter 11).
   */
  public void runAtLeast(Duration length) {
    floorMillis = clock.millis() + length.toMillis();
  }

  /** Whether the grace period is running. */
  public boolean active() {
    long now = clock.millis();
    if (now < endMillis || now < floorMillis) {
      return true;
    }
    if (ended.compareAndSet(false, true)) {
      onEnd.run();
    }
    return false;
  }

  /** Ends the grace period now. */
  public void end() {
    endMillis = Long.MIN_VALUE;
    floorMillis = Long.MIN_VALUE;
    active();
  }

  /**
   * For a reclaim (CLAIM_PREVIOUS, LOCK reclaim), without regard to who asks.
   *
   * @throws Nfs4Exception NFS4ERR_NO_GRACE when the grace period is over
   */
  public void checkReclaim() {
    if (!active()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NO_GRACE, "grace period over: nothing can be reclaimed");
    }
  }

  /**
   * For a reclaim by a client.
   *
   * @throws Nfs4Exception NFS4ERR_NO_GRACE when the grace period is over or the client sent RECLAIM_COMPLETE,
   *     NFS4ERR_RECLAIM_BAD when the client held no state before the restart
   */
  public void checkReclaim(ClientRecord client) {
    checkReclaim();
    if (client.reclaimComplete) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NO_GRACE, client + " already sent RECLAIM_COMPLETE");
    }
    if (reclaimers != null && !reclaimers.contains(ByteBuffer.wrap(client.owner))) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_RECLAIM_BAD, client + " held no state before the restart");
    }
  }

  /**
   * For new state that could conflict with a reclaim (OPEN other than CLAIM_PREVIOUS/CLAIM_FH of an open file, LOCK
   * without reclaim, LOCKT, SETATTR of size).
   *
   * @throws Nfs4Exception NFS4ERR_GRACE while the grace period runs
   */
  public void checkNonReclaim() {
    if (active()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_GRACE, "in the grace period: only reclaims are served");
    }
  }

  /**
   * A client sent RECLAIM_COMPLETE (RFC 8881 §18.51): when every client known from before the restart has, the grace
   * period ends.
   */
  public void reclaimComplete(ClientRecord client) {
    boolean all;
    synchronized (pending) {
      pending.remove(ByteBuffer.wrap(client.owner));
      all = reclaimers != null && pending.isEmpty();
    }
    if (all) {
      endMillis = Long.MIN_VALUE; // the NLM hosts' part (runAtLeast) runs on
      active();
    }
  }
}
