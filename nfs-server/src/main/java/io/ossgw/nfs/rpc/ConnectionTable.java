package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.glassfish.grizzly.nio.NIOConnection;

/**
 * The open connections and the rules that keep room for new clients (issue 9 items 6 and 7):
 *
 * <ul>
 *   <li><b>Networks:</b> a peer no export allows is closed at accept.
 *   <li><b>Cap:</b> at {@code maxConnections} the connection idle longest (nothing in flight, no complete record
 *       buffered) is closed to make room; only when every connection is busy is the new one refused.
 *   <li><b>Idle:</b> a connection with nothing in flight and nothing buffered for {@code idleTimeout} is closed. NFSv3
 *       keeps no per-connection state, so clients reconnect transparently (Linux knfsd closes idle TCP connections
 *       after 6 minutes the same way).
 *   <li><b>Incomplete record:</b> a connection that holds part of a record, with nothing in flight, for
 *       {@code recordTimeout} is closed (a client sends a whole record at once; a trickle is an attack).
 *   <li><b>Stalled replies:</b> while the server is at its total in-flight cap, or the connection's client address at
 *       its share, a connection whose queued replies have not moved for {@code stallTimeout} (the client sends but
 *       does not read) is closed abortively (a TCP reset: a graceful close would wait for those replies to be read)
 *       and its replies are dropped, so its calls and the memory they hold go at once to the clients that read.
 * </ul>
 *
 * What is closed, refused and dropped is counted and logged as one summary line per {@code SUMMARY_EVERY} at most,
 * never a line per event. {@link #sweep()} applies the time rules; the server calls it periodically.
 */
final class ConnectionTable {
  private static final System.Logger LOG = System.getLogger(ConnectionTable.class.getName());
  static final long SUMMARY_EVERY = Duration.ofMinutes(1).toNanos();

  /** The time rules, nanoseconds; 0 disables a rule. */
  record Timeouts(long idle, long record, long stall) {
    static Timeouts of(Duration idle, Duration record, Duration stall) {
      return new Timeouts(idle.toNanos(), record.toNanos(), stall.toNanos());
    }
  }

  private final FlowControl flow;
  private final int maxConnections;
  private final Timeouts timeouts;
  private final Predicate<InetAddress> allowed;
  private final Set<FlowControl.Conn> open = ConcurrentHashMap.newKeySet();
  private final Counters counters = new Counters();
  private long lastSummary;

  ConnectionTable(FlowControl flow, int maxConnections, Timeouts timeouts, Predicate<InetAddress> allowed) {
    this.flow = flow;
    this.maxConnections = maxConnections;
    this.timeouts = timeouts;
    this.allowed = allowed;
    this.lastSummary = flow.now();
  }

  int size() {
    return open.size();
  }

  /** Replies queued and not yet written, over all open connections. */
  int queuedReplies() {
    return open.stream().mapToInt(FlowControl.Conn::queuedReplies).sum();
  }

  Counters counters() {
    return counters;
  }

  /**
   * Admits a new connection, closing the longest-idle one when at the cap.
   *
   * @return false if the peer must be closed (network not allowed, or every connection busy)
   */
  synchronized boolean admit(SocketAddress peer) {
    if (peer instanceof InetSocketAddress a && (a.getAddress() == null || !allowed.test(a.getAddress()))) {
      counters.refusedNetwork.incrementAndGet();
      return false;
    }
    if (open.size() >= maxConnections) {
      FlowControl.Conn victim = null;
      for (FlowControl.Conn c : open) {
        if (c.calls() == 0 && (victim == null || c.lastActivity() < victim.lastActivity())) {
          victim = c;
        }
      }
      if (victim == null) {
        counters.refusedFull.incrementAndGet();
        return false;
      }
      counters.evicted.incrementAndGet();
      close(victim);
    }
    return true;
  }

  /** The connection was accepted and set up. */
  void added(FlowControl.Conn c) {
    open.add(c);
  }

  /** The connection closed (by either side). */
  void removed(FlowControl.Conn c) {
    open.remove(c);
  }

  /** A queued reply was dropped because its connection closed before it was written. */
  void replyDropped() {
    counters.dropped.incrementAndGet();
  }

  /** Applies the idle, incomplete-record and stalled-reply rules now, and logs the summary when it is due. */
  void sweep() {
    long now = flow.now();
    boolean atTotalCap = flow.atTotalCap();
    for (FlowControl.Conn c : open) {
      if (timeouts.record() > 0) {
        long since = c.incompleteSince();
        if (since >= 0 && now - since >= timeouts.record()) {
          counters.closedIncomplete.incrementAndGet();
          close(c);
          continue;
        }
      }
      if (timeouts.idle() > 0 && c.idle() && now - c.lastActivity() >= timeouts.idle()) {
        counters.closedIdle.incrementAndGet();
        close(c);
        continue;
      }
      if (timeouts.stall() > 0 && (atTotalCap || c.peerAtCap())) {
        long since = c.stalledSince();
        if (since >= 0 && now - since >= timeouts.stall()) {
          counters.closedStalled.incrementAndGet();
          abort(c);
        }
      }
    }
    if (now - lastSummary >= SUMMARY_EVERY) {
      lastSummary = now;
      String s = counters.drain();
      if (s != null) {
        LOG.log(System.Logger.Level.WARNING, "NFS connections in the last minute: " + s + " (" + open.size()
            + " open, " + flow.inFlight() + " calls in flight)");
      }
    }
  }

  private void close(FlowControl.Conn c) {
    open.remove(c);
    c.connection.closeSilently();
  }

  /**
   * Closes a connection at once, whatever it has queued: a graceful close waits until the write queue is empty, which
   * for a client that does not read is never, and would keep its calls in flight. SO_LINGER 0 makes the close a TCP
   * reset, so the kernel drops the bytes already in the socket's send buffer too; the queued replies fail, which
   * ends their calls ({@link TrackedTransport}).
   */
  private void abort(FlowControl.Conn c) {
    open.remove(c);
    if (c.connection instanceof NIOConnection nio && nio.getChannel() instanceof SocketChannel ch) {
      try {
        ch.setOption(StandardSocketOptions.SO_LINGER, 0);
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "SO_LINGER on " + c.connection + ": " + e);
      }
    }
    c.connection.terminateSilently();
  }

  /** What was refused, closed and dropped since the last summary. */
  static final class Counters {
    final AtomicLong refusedNetwork = new AtomicLong();
    final AtomicLong refusedFull = new AtomicLong();
    final AtomicLong evicted = new AtomicLong();
    final AtomicLong closedIdle = new AtomicLong();
    final AtomicLong closedIncomplete = new AtomicLong();
    final AtomicLong closedStalled = new AtomicLong();
    final AtomicLong closedOversize = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();

    /** The counts as one phrase (and resets them), or null if all are zero. */
    String drain() {
      StringBuilder b = new StringBuilder();
      part(b, refusedNetwork, "refused (network not in any export)");
      part(b, refusedFull, "refused (connection cap, all busy)");
      part(b, evicted, "idle closed to make room");
      part(b, closedIdle, "closed idle");
      part(b, closedIncomplete, "closed with an incomplete record");
      part(b, closedStalled, "closed not reading replies");
      part(b, closedOversize, "closed for an oversized record");
      part(b, dropped, "replies dropped (connection closed before they were written)");
      return b.isEmpty() ? null : b.toString();
    }

    private static void part(StringBuilder b, AtomicLong n, String what) {
      long v = n.getAndSet(0);
      if (v > 0) {
        b.append(b.isEmpty() ? "" : ", ").append(v).append(' ').append(what);
      }
    }
  }
}
