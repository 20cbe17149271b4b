package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.Invalidation;
import io.ossgw.core.cluster.InvalidationChannel;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.RedisConnection;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jboss.logging.Logger;

/**
 * Invalidations over the store's pub/sub, channel {@code ossgw:NAME:invalidations}. Publishing is asynchronous (never
 * blocks a file operation); a failed PUBLISH is counted and logged, at most once a minute. The subscription is a
 * dedicated connection kept by one thread ({@code ossgw-invalidations}): when it drops (store restart, network) the
 * thread reconnects with a back-off (100 ms doubling to 5 s) and, once subscribed again, tells the listener to
 * {@link Listener#resync() resync} (messages of the gap are lost, so everything cached is dropped).
 */
public final class RedisInvalidationChannel implements InvalidationChannel {
  private static final Logger LOG = Logger.getLogger(RedisInvalidationChannel.class);

  private final RedisStore store;
  private final String channel;
  private final String node;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private volatile long lastWarn;
  private volatile boolean closed;

  public RedisInvalidationChannel(RedisStore store, String node) {
    this.store = store;
    this.channel = store.settings().key("invalidations");
    this.node = node;
  }

  @Override
  public void publish(Invalidation inv) {
    sent.incrementAndGet();
    store.send("publish", Request.cmd(Command.PUBLISH).arg(channel).arg(inv.encode()), e -> {
      failed.incrementAndGet();
      long now = System.nanoTime();
      if (now - lastWarn > 60_000_000_000L) {
        lastWarn = now;
        LOG.warnf("cluster: an invalidation could not be published (%s); other gateways see the change after their "
            + "cache TTL (stat_cache_expire). Failed so far: %d", e.getMessage(), failed.get());
      }
    });
  }

  @Override
  public AutoCloseable subscribe(Listener listener) {
    Thread t = Thread.ofPlatform().name("ossgw-invalidations").daemon().start(() -> run(listener));
    return () -> {
      closed = true;
      t.interrupt();
    };
  }

  private void run(Listener listener) {
    long backoff = 100;
    boolean first = true;
    while (!closed) {
      RedisConnection c;
      try {
        c = store.connect(store.settings().timeout());
      } catch (ClusterStoreException e) {
        LOG.debugf("cluster: invalidation subscription not connected: %s", e.getMessage());
        LockSupport.parkNanos(Duration.ofMillis(backoff).toNanos());
        backoff = Math.min(backoff * 2, 5000);
        continue;
      }
      Object done = new Object();
      boolean[] ended = new boolean[1];
      Runnable end = () -> {
        synchronized (done) {
          ended[0] = true;
          done.notifyAll();
        }
      };
      c.handler(r -> deliver(r, listener));
      c.exceptionHandler(e -> end.run());
      c.endHandler(end);
      try {
        c.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).await().atMost(store.settings().timeout());
      } catch (RuntimeException e) {
        c.closeAndForget();
        LockSupport.parkNanos(Duration.ofMillis(backoff).toNanos());
        backoff = Math.min(backoff * 2, 5000);
        continue;
      }
      backoff = 100;
      if (!first) {
        LOG.infof("cluster: invalidation subscription back on %s; dropping every cached attribute and listing "
            + "(messages of the gap are lost)", store.settings().displayUrl());
        listener.resync();
      }
      first = false;
      while (!closed && !waitEnded(done, ended)) {
        try { // a silent network cut shows no end: a PING every 5 s finds it
          c.send(Request.cmd(Command.PING)).await().atMost(store.settings().timeout());
        } catch (RuntimeException e) {
          break;
        }
      }
      c.closeAndForget();
      if (!closed) {
        LOG.warnf("cluster: invalidation subscription to %s lost; reconnecting", store.settings().displayUrl());
      }
    }
  }

  /** Waits up to 5 s for the connection's end; true when it ended. */
  private boolean waitEnded(Object done, boolean[] ended) {
    synchronized (done) {
      long until = System.nanoTime() + 5_000_000_000L;
      while (!ended[0] && !closed && System.nanoTime() - until < 0) {
        try {
          done.wait(Math.max(1, (until - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          closed = true;
        }
      }
      return ended[0];
    }
  }

  private void deliver(Response r, Listener listener) {
    // RESP2: a multi-bulk [message, channel, payload]; RESP3: a push of the same
    if (r == null || !(r.type() == ResponseType.PUSH || r.type() == ResponseType.MULTI) || r.size() < 3
        || !"message".equals(r.get(0).toString())) {
      return;
    }
    Invalidation inv;
    try {
      inv = Invalidation.decode(r.get(2).toString());
    } catch (IllegalArgumentException e) {
      LOG.debugf("cluster: ignored a message on %s: %s", channel, e.getMessage());
      return;
    }
    if (inv.origin().equals(node)) {
      return;
    }
    received.incrementAndGet();
    listener.invalidate(inv);
  }

  /** Invalidations this node published (asked to). */
  public long sent() {
    return sent.get();
  }

  /** Invalidations of other nodes delivered. */
  public long received() {
    return received.get();
  }

  /** Publications that failed. */
  public long failed() {
    return failed.get();
  }

  @Override
  public void close() {
    closed = true;
  }
}
