package io.ossgw.core.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link LeaseStore} in this process's memory, expiring by a {@link Ticker}: the store of several {@link Lease}s of
 * one process (tests of the state machine, which move the ticker instead of sleeping) and the reference the
 * Valkey/Redis store is held to. {@link #down} makes every call fail as an unreachable store would.
 */
public final class MemoryLeaseStore implements LeaseStore {
  private final Ticker ticker;
  private String node;
  private long token;
  private long expiresAt;
  private long lastToken;
  private volatile boolean down;

  /** @param ticker the store's clock (nanoseconds) */
  public MemoryLeaseStore(Ticker ticker) {
    this.ticker = ticker;
  }

  /** Makes every following call throw {@link ClusterStoreException.Kind#UNREACHABLE} (true) or work again. */
  public void down(boolean down) {
    this.down = down;
  }

  private void check() {
    if (down) {
      throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "store down (test)", null);
    }
    if (node != null && ticker.read() - expiresAt >= 0) {
      node = null;
    }
  }

  @Override
  public synchronized OptionalLong tryAcquire(String n, Duration ttl, Duration timeout) {
    check();
    if (node != null) {
      return OptionalLong.empty();
    }
    node = n;
    token = ++lastToken;
    expiresAt = ticker.read() + ttl.toNanos();
    return OptionalLong.of(token);
  }

  @Override
  public synchronized boolean renew(String n, long t, Duration ttl, Duration timeout) {
    check();
    if (n.equals(node) && t == token) {
      expiresAt = ticker.read() + ttl.toNanos();
      return true;
    }
    return false;
  }

  @Override
  public synchronized void release(String n, long t, Duration timeout) {
    check();
    if (n.equals(node) && t == token) {
      node = null;
    }
  }

  @Override
  public synchronized Optional<Holder> holder(Duration timeout) {
    check();
    return node == null ? Optional.empty() : Optional.of(new Holder(node, token));
  }
}
