package io.ossgw.nfs.v4.state;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The timer that frees what expired clients held (RFC 8881 §8.3: a client whose lease ran out loses its state): every
 * interval it runs {@link ClientTable#reap()} (whose remove listeners release locks, close opens, forget the client
 * record) and looks at the grace period (so its end is noticed, and the client record cleaned, with no traffic). One
 * daemon thread per server; {@link #close()} stops it. Without it expiry would only be noticed by the next request.
 */
public final class Reaper implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(Reaper.class.getName());
  private final ScheduledExecutorService timer;

  private Reaper(ClientTable clients, Grace grace, Duration interval) {
    timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "nfs4-lease-reaper");
      t.setDaemon(true);
      return t;
    });
    long ms = Math.max(1, interval.toMillis());
    timer.scheduleWithFixedDelay(() -> {
      try {
        int n = clients.reap();
        if (n > 0) {
          LOG.log(System.Logger.Level.INFO, "NFSv4.1: " + n + " clients' leases expired, their state freed");
        }
        grace.active();
      } catch (RuntimeException e) { // a failing listener must not stop the timer
        LOG.log(System.Logger.Level.WARNING, "NFSv4.1 lease reaper", e);
      }
    }, ms, ms, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts the timer.
   *
   * @param interval how often; e.g. 1 s (leases are tens of seconds)
   */
  public static Reaper start(ClientTable clients, Grace grace, Duration interval) {
    return new Reaper(clients, grace, interval);
  }

  /** Stops the timer (a run in progress finishes). */
  @Override
  public void close() {
    timer.shutdownNow();
  }
}
