package io.ossgw.core.store.lean;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;

/**
 * Keep-alive connections to one host:port, at most {@code maxConnections} in use at once (a caller waits up to
 * {@code acquireTimeoutMillis} for one, as the SDK's connection-request timeout), idle ones closed after
 * {@code idleMillis}. A daemon reaper thread closes connections whose blocking call has passed its deadline (see
 * {@link HttpConnection}), so {@code readwrite_timeout} holds without a selector. With a TLS engine supplier every new
 * connection runs its handshake (under the same deadline) before it is handed out; the engines' shared session cache
 * makes later handshakes resumptions, and keep-alive makes most requests need none.
 */
final class ConnectionPool implements AutoCloseable {
  private final String host;
  private final int port;
  private final int connectTimeoutMillis;
  private final long timeoutNanos;
  private final long idleMillis;
  private final long acquireTimeoutMillis;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<HttpConnection> idle = new ConcurrentLinkedDeque<>();
  private final Set<HttpConnection> busy = ConcurrentHashMap.newKeySet();
  private final Thread reaper;
  private final AtomicLong opened = new AtomicLong();
  private final Supplier<SSLEngine> tls;
  private volatile boolean closed;

  /**
   * @param host host name or address to connect to
   * @param port TCP port
   * @param maxConnections connections in use at once
   * @param connectTimeoutMillis TCP connect timeout
   * @param timeoutMillis longest a blocking read or write may make no progress
   * @param idleMillis idle connections older than this are closed instead of reused
   * @param acquireTimeoutMillis longest wait for a free connection
   * @param tls a new client engine per connection for TLS, or null for plain TCP
   */
  ConnectionPool(String host, int port, int maxConnections, int connectTimeoutMillis, long timeoutMillis,
      long idleMillis, long acquireTimeoutMillis, Supplier<SSLEngine> tls) {
    this.tls = tls;
    this.host = host;
    this.port = port;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    this.idleMillis = idleMillis;
    this.acquireTimeoutMillis = acquireTimeoutMillis;
    this.permits = new Semaphore(maxConnections);
    long tick = Math.max(10, Math.min(1000, timeoutMillis / 4));
    this.reaper = Thread.ofPlatform().daemon().name("ossgw-lean-reaper").unstarted(() -> reap(tick));
    reaper.start();
  }

  /**
   * A connection for one request: an idle one if {@code fresh} is false and one is left, else a new one.
   *
   * @throws IOException when no connection frees up in time, the connect fails or (TLS) the handshake fails
   */
  HttpConnection acquire(boolean fresh) throws IOException {
    try {
      if (!permits.tryAcquire(acquireTimeoutMillis, TimeUnit.MILLISECONDS)) {
        throw new IOException("no free connection to " + host + ":" + port + " within " + acquireTimeoutMillis + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted waiting for a connection");
    }
    try {
      HttpConnection c = fresh ? null : pollIdle();
      if (c == null) {
        c = HttpConnection.open(new InetSocketAddress(host, port), connectTimeoutMillis, timeoutNanos,
            tls == null ? null : tls.get());
        opened.incrementAndGet();
        busy.add(c); // before the handshake: the reaper holds it to the read/write timeout
        try {
          c.handshake();
        } catch (IOException | RuntimeException e) {
          busy.remove(c);
          c.close();
          throw e;
        }
        return c;
      }
      busy.add(c);
      return c;
    } catch (IOException | RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  private HttpConnection pollIdle() {
    long now = System.currentTimeMillis();
    HttpConnection c;
    while ((c = idle.pollFirst()) != null) {
      if (c.isOpen() && now - c.idleSince < idleMillis) {
        return c;
      }
      c.closeIdle();
    }
    return null;
  }

  /** Returns a connection after a complete exchange ({@code reuse}) or closes it (error, {@code Connection: close}). */
  void release(HttpConnection c, boolean reuse) {
    busy.remove(c);
    c.requests++;
    if (reuse && !closed && c.isOpen()) {
      c.idleSince = System.currentTimeMillis();
      idle.offerFirst(c); // most recently used first: fewer idle sockets stay warm
    } else {
      c.close();
    }
    permits.release();
  }

  /** Connections opened since start (keep-alive reuse keeps this low); over TLS each one is a handshake. */
  long opened() {
    return opened.get();
  }

  private void reap(long tickMillis) {
    while (!closed) {
      try {
        Thread.sleep(tickMillis);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (HttpConnection c : busy) {
        long d = c.deadlineNanos;
        if (d != 0 && now - d > 0) {
          c.expire();
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    reaper.interrupt();
    HttpConnection c;
    while ((c = idle.pollFirst()) != null) {
      c.closeIdle();
    }
  }
}
