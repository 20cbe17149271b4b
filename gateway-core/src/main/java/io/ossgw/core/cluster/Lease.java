package io.ossgw.core.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The serving lease of one node (active/standby): a state machine over a {@link LeaseStore}, driven by
 * {@link #step()} calls from one thread ({@link LeaseRunner}; tests call it with an injected {@link Ticker}).
 *
 * <ul>
 *   <li><b>Standby:</b> every {@code renewEvery} it asks the store for the lease ({@code tryAcquire}); the store grants
 *       it only once the former holder's key has expired (or was released).
 *   <li><b>Holder:</b> every {@code renewEvery} it renews (compare-and-renew: only its own node and token). The lease
 *       is valid by the <em>local monotonic clock</em> until {@code sent + ttl - margin}, where {@code sent} is when
 *       the last successful renewal (or the acquisition) was <em>sent</em>: the store counts its {@code ttl} from when it
 *       received that request, which is later, so a holder cut off from the store (or paused: SIGSTOP, a long GC)
 *       stops before the store can hand the lease to another node. {@code margin} is a tenth of the TTL and covers
 *       the rate difference of the two clocks.
 *   <li><b>Lost</b> (fenced): when a renewal is refused (the key names another holder or has expired), or when the
 *       local validity runs out (renewals failed or were not answered). The node then is a standby again.
 * </ul>
 *
 * {@link Listener#acquired} and {@link Listener#lost} are called on the stepping thread, in order; they must not
 * block (the app hands them to its own thread), or the renewals wait for them.
 */
public final class Lease implements Fence {
  /** Where the node stands. */
  public enum State {
    STANDBY, HOLDER, CLOSED
  }

  /** Told of every change of holding. */
  public interface Listener {
    /** This node took the lease under {@code token}. */
    void acquired(long token);

    /**
     * This node lost the lease it held under {@code token} (it is fenced: {@link Lease#valid()} is already false).
     *
     * @param reason why, for the log line
     */
    void lost(long token, String reason);
  }

  private final LeaseStore store;
  private final String node;
  private final Duration ttl;
  private final long ttlNanos;
  private final long renewNanos;
  private final long marginNanos;
  private final Ticker ticker;
  private final Listener listener;

  private volatile State state = State.STANDBY;
  private volatile long token;
  private volatile long validUntil;
  private long nextRenew;
  private long lastRenewSent;
  private volatile ClusterStoreException storeError;
  private final AtomicLong acquisitions = new AtomicLong();
  private final AtomicLong losses = new AtomicLong();
  private final AtomicLong storeFailures = new AtomicLong();

  /**
   * @param store where the lease lives
   * @param node this node's id (unique in the cluster)
   * @param ttl the lease's time to live (the store's key expiry); at least 10 ms
   * @param renewEvery how often the holder renews and a standby asks; less than half of {@code ttl}
   * @param ticker the monotonic clock (nanoseconds)
   * @param listener told of every acquisition and loss
   * @throws IllegalArgumentException for a TTL below 10 ms or a renew interval not in (0, ttl/2)
   */
  public Lease(LeaseStore store, String node, Duration ttl, Duration renewEvery, Ticker ticker, Listener listener) {
    if (ttl.toMillis() < 10) {
      throw new IllegalArgumentException("lease TTL must be at least 10ms, got " + ttl);
    }
    if (renewEvery.isNegative() || renewEvery.isZero() || renewEvery.multipliedBy(2).compareTo(ttl) >= 0) {
      throw new IllegalArgumentException("lease renew interval must be above 0 and below half the TTL (" + ttl
          + "), got " + renewEvery);
    }
    this.store = store;
    this.node = node;
    this.ttl = ttl;
    this.ttlNanos = ttl.toNanos();
    this.renewNanos = renewEvery.toNanos();
    this.marginNanos = ttlNanos / 10;
    this.ticker = ticker;
    this.listener = listener;
  }

  /**
   * One step: a standby asks for the lease; a holder renews when due, and is fenced when its validity ran out or the
   * store refused the renewal. Store calls are given a timeout that ends no later than the validity.
   *
   * @return nanoseconds until the next step is due (0: at once); {@link Long#MAX_VALUE} once closed
   */
  public synchronized long step() {
    long now = ticker.read();
    return switch (state) {
      case CLOSED -> Long.MAX_VALUE;
      case STANDBY -> standbyStep(now);
      case HOLDER -> holderStep(now);
    };
  }

  private long standbyStep(long sent) {
    OptionalLong t;
    try {
      t = store.tryAcquire(node, ttl, Duration.ofNanos(renewNanos));
      storeError = null;
    } catch (ClusterStoreException e) {
      storeFailures.incrementAndGet();
      storeError = e;
      return renewNanos;
    }
    if (t.isEmpty()) {
      return renewNanos;
    }
    token = t.getAsLong();
    validUntil = sent + ttlNanos - marginNanos;
    lastRenewSent = sent;
    nextRenew = sent + renewNanos;
    state = State.HOLDER;
    acquisitions.incrementAndGet();
    listener.acquired(token);
    return Math.max(0, nextRenew - ticker.read());
  }

  private long holderStep(long now) {
    if (now - validUntil >= 0) {
      return lose(expiredReason(now));
    }
    if (now - nextRenew >= 0) {
      long timeout = Math.min(renewNanos, validUntil - now);
      boolean renewed;
      try {
        renewed = store.renew(node, token, ttl, Duration.ofNanos(timeout));
        storeError = null;
      } catch (ClusterStoreException e) {
        storeFailures.incrementAndGet();
        storeError = e;
        nextRenew = now + Math.max(renewNanos / 4, 1);
        long after = ticker.read();
        return after - validUntil >= 0 ? lose(expiredReason(after)) : Math.max(0, Math.min(nextRenew, validUntil) - after);
      }
      if (!renewed) {
        return lose("the store no longer names this node the holder (its key expired or another node took it)");
      }
      validUntil = now + ttlNanos - marginNanos;
      lastRenewSent = now;
      nextRenew = now + renewNanos;
    }
    long after = ticker.read();
    if (after - validUntil >= 0) {
      return lose(expiredReason(after));
    }
    return Math.max(0, Math.min(nextRenew, validUntil) - after);
  }

  private String expiredReason(long now) {
    ClusterStoreException e = storeError;
    return "no renewal succeeded for " + Duration.ofNanos(now - lastRenewSent).toMillis() + " ms (TTL " + ttl.toMillis()
        + " ms): the store may already have handed the lease to another node"
        + (e == null ? "" : "; last store error: " + e.getMessage());
  }

  private long lose(String reason) {
    long t = token;
    state = State.STANDBY;
    token = 0;
    losses.incrementAndGet();
    listener.lost(t, reason);
    return 0; // ask again at once: a refused renewal may mean the key expired with nobody else holding it
  }

  /**
   * Stops stepping and, when holding, gives the lease up in the store (so a standby takes over without waiting for the
   * TTL). Call it only after this node stopped serving and writing. The listener is not told.
   */
  public synchronized void close() {
    if (state == State.HOLDER) {
      long t = token;
      state = State.CLOSED;
      token = 0;
      try {
        store.release(node, t, Duration.ofNanos(renewNanos));
      } catch (ClusterStoreException e) {
        storeError = e; // it expires on its own after the TTL
      }
    }
    state = State.CLOSED;
  }

  @Override
  public boolean valid() {
    return state == State.HOLDER && ticker.read() - validUntil < 0;
  }

  @Override
  public long token() {
    return state == State.HOLDER ? token : 0;
  }

  @Override
  public boolean validFor(long t) {
    return t != 0 && token == t && valid();
  }

  /** Where this node stands now (a holder whose validity ran out stays HOLDER until the next step fences it). */
  public State state() {
    return state;
  }

  /** This node's id. */
  public String node() {
    return node;
  }

  /** The lease's time to live. */
  public Duration ttl() {
    return ttl;
  }

  /** Times this node took the lease. */
  public long acquisitions() {
    return acquisitions.get();
  }

  /** Times this node lost the lease (fenced). */
  public long losses() {
    return losses.get();
  }

  /** Store requests of the lease that failed (unreachable, timeout, full, refused). */
  public long storeFailures() {
    return storeFailures.get();
  }

  /** The last store failure while it lasts (cleared by the next successful request), or null. */
  public ClusterStoreException storeError() {
    return storeError;
  }

  @Override
  public String toString() {
    return "lease of " + node + " (" + state + (state == State.HOLDER ? ", token " + token : "") + ")";
  }
}
