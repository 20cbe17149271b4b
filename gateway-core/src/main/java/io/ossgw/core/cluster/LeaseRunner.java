package io.ossgw.core.cluster;

import java.util.concurrent.locks.LockSupport;

/**
 * Steps a {@link Lease} on one daemon platform thread ({@code ossgw-lease}) as often as it asks, until closed. The
 * thread does nothing else, so a slow front end start or stop never delays a renewal (the listener hands those to
 * another thread).
 */
public final class LeaseRunner implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(LeaseRunner.class.getName());
  private final Lease lease;
  private final Thread thread;
  private volatile boolean stopped;

  /** Starts stepping {@code lease} at once. */
  public LeaseRunner(Lease lease) {
    this.lease = lease;
    this.thread = Thread.ofPlatform().name("ossgw-lease").daemon().start(this::run);
  }

  private void run() {
    while (!stopped) {
      long wait;
      try {
        wait = lease.step();
      } catch (RuntimeException e) { // a listener's bug must not end the renewals
        LOG.log(System.Logger.Level.ERROR, "lease step failed", e);
        wait = lease.ttl().toNanos() / 10;
      }
      if (wait == Long.MAX_VALUE) {
        return;
      }
      if (wait > 0) {
        LockSupport.parkNanos(this, wait);
      }
    }
  }

  /** Stops stepping (the lease itself is closed by its owner, after the front ends stopped). */
  @Override
  public void close() {
    stopped = true;
    LockSupport.unpark(thread);
    try {
      thread.join(lease.ttl().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
