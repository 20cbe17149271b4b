package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;

/**
 * Caps the calls in flight, per connection, per client address and in total. A call is in flight from the moment its
 * record is taken from the connection's {@link RecordStream} until its reply has been written to the socket (or
 * dropped), so the caps bound both the requests waiting for a worker and the replies queued in Grizzly's unbounded
 * write queue (oncrpc4j #119). At a cap a connection is paused: no further record is taken from what it already sent,
 * and its socket is not read (READ interest off), so the client waits in TCP flow control and nothing is dropped. The
 * per-connection cap is a fraction of the address's, and that a fraction of the total, so a client that sends without
 * reading replies, over as many connections as it likes, only ever holds its address's share and leaves the rest to
 * other machines; at the total cap (memory) every connection is paused until calls finish. {@link ConnectionTable}
 * closes the connections whose replies are not being read while their address or the server is at its cap. When
 * calls finish a paused connection resumes and its buffered records are taken first ({@code onResume}).
 */
final class FlowControl {
  private static final System.Logger LOG = System.getLogger(FlowControl.class.getName());
  private final int perConnection;
  private final int perPeer;
  private final int total;
  private final LongSupplier clock;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<Conn> paused = ConcurrentHashMap.newKeySet();
  /** The client addresses with a connection open, with their calls in flight. */
  private final Map<InetAddress, Peer> peers = new ConcurrentHashMap<>();
  private final Consumer<Conn> onResume;

  /**
   * @param perConnection most calls in flight on one connection
   * @param perPeer most calls in flight from one client address, over all its connections
   * @param total most calls in flight on the whole server
   * @param clock nanoseconds, monotonic ({@code System::nanoTime}; tests inject their own)
   * @param onResume takes the buffered records of a connection that may run calls again (any thread)
   */
  FlowControl(int perConnection, int perPeer, int total, LongSupplier clock, Consumer<Conn> onResume) {
    this.perConnection = perConnection;
    this.perPeer = perPeer;
    this.total = total;
    this.clock = clock;
    this.onResume = onResume;
  }

  /** Calls in flight on the server now. */
  int inFlight() {
    return inFlight.get();
  }

  /** True while the server is at its total cap. */
  boolean atTotalCap() {
    return inFlight.get() >= total;
  }

  long now() {
    return clock.getAsLong();
  }

  /** Calls in flight from one client address. */
  int inFlight(InetAddress address) {
    Peer p = peers.get(address);
    return p == null ? 0 : p.calls.get();
  }

  /** One client address: its open connections and its calls in flight. */
  private static final class Peer {
    final AtomicInteger calls = new AtomicInteger();
    int connections; // guarded by the map's compute
  }

  private Peer attach(InetAddress address) {
    return peers.compute(address, (a, p) -> {
      Peer q = p == null ? new Peer() : p;
      q.connections++;
      return q;
    });
  }

  private void detach(InetAddress address) {
    peers.computeIfPresent(address, (a, p) -> --p.connections == 0 && p.calls.get() == 0 ? null : p);
  }

  /** The address of a connection's peer (one key for every connection that has none, e.g. in tests). */
  private static InetAddress addressOf(Connection<?> c) {
    return c.getPeerAddress() instanceof InetSocketAddress a && a.getAddress() != null ? a.getAddress()
        : InetAddress.getLoopbackAddress();
  }

  /**
   * Per-connection state: its calls, its received bytes, whether it is paused, and the times the idle, incomplete
   * record and stalled-reply rules of {@link ConnectionTable} look at. Its monitor guards the stream and the counters.
   */
  final class Conn {
    final Connection<?> connection;
    final RecordStream records;
    final InetAddress address;
    private final Peer peer;
    private int calls;
    private int queuedReplies;
    private boolean isPaused;
    private boolean closed;
    /** Last time bytes arrived or a reply was written (nanos). */
    private long lastActivity;
    /** Since when the bytes buffered are an incomplete record (nanos), or -1. */
    private long partialSince = -1;
    /** Last time a queued reply was written, or the queue became non-empty (nanos). */
    private long lastWrite;

    Conn(Connection<?> connection, RecordStream records) {
      this.connection = connection;
      this.records = records;
      this.address = addressOf(connection);
      this.peer = attach(address);
      this.lastActivity = now();
      this.lastWrite = lastActivity;
    }

    /**
     * True while the connection may not start calls: paused, closed, or its address or the server at a cap (filled by
     * other connections; this one is then paused too). The caller holds this monitor.
     */
    boolean paused() {
      if (isPaused || closed) {
        return true;
      }
      if (peer.calls.get() >= perPeer || inFlight.get() >= total) {
        return pause();
      }
      return false;
    }

    /**
     * Starts a call; pauses the connection when this reaches a cap. Call with this monitor held, before the next
     * record is taken.
     */
    Ticket begin() {
      calls++;
      int mine = peer.calls.incrementAndGet();
      int all = inFlight.incrementAndGet();
      if (calls >= perConnection || mine >= perPeer || all >= total) {
        pause();
      }
      return new Ticket(this);
    }

    /**
     * Pauses the connection, unless a call ended meanwhile and left room (its resume pass may have run before this
     * connection was in {@link #paused}; a call ending after the check below finds it there).
     *
     * @return true if the connection stays paused
     */
    private boolean pause() {
      isPaused = true;
      paused.add(this);
      if (mayRun()) {
        isPaused = false;
        paused.remove(this);
        return false;
      }
      setReading(false); // a resume waits for this monitor, so it turns reading back on after this
      return true;
    }

    /** True if this connection is under every cap now. Call with this monitor held. */
    private boolean mayRun() {
      return calls < perConnection && peer.calls.get() < perPeer && inFlight.get() < total;
    }

    /** True while the connection's address holds its whole share of calls (the stall rule applies). */
    boolean peerAtCap() {
      return peer.calls.get() >= perPeer;
    }

    /**
     * Bytes arrived (appended to {@link #records}): the connection is active, and a record started now if none was
     * pending. Call with this monitor held.
     */
    void received() {
      long t = now();
      lastActivity = t;
      if (records.buffered() == 0) {
        partialSince = -1;
      } else if (partialSince < 0) {
        partialSince = t;
      }
    }

    /** A record was taken: what is left, if anything, is the start of the next one. Call with this monitor held. */
    void tookRecord() {
      if (records.buffered() == 0) {
        partialSince = -1;
      } else {
        partialSince = now();
      }
    }

    synchronized int calls() {
      return calls;
    }

    synchronized long lastActivity() {
      return lastActivity;
    }

    /** Since when the connection holds an incomplete record and nothing in flight (nanos), or -1. */
    synchronized long incompleteSince() {
      return calls == 0 && !closed && !isPaused ? partialSince : -1;
    }

    /** Since when queued replies have not moved (nanos), or -1 when no reply is queued. */
    synchronized long stalledSince() {
      return queuedReplies > 0 ? lastWrite : -1;
    }

    synchronized int queuedReplies() {
      return queuedReplies;
    }

    /** No call in flight and no byte buffered: closing it loses nothing (NFSv3 keeps no connection state). */
    synchronized boolean idle() {
      return calls == 0 && records.buffered() == 0;
    }

    private synchronized void replyQueued() {
      if (queuedReplies++ == 0) {
        lastWrite = now();
      }
    }

    private void end(boolean wasQueued, boolean written) {
      if (peer.calls.decrementAndGet() == 0) {
        peers.computeIfPresent(address, (a, p) -> p.connections == 0 && p.calls.get() == 0 ? null : p);
      }
      synchronized (this) {
        calls--;
        if (wasQueued) {
          queuedReplies--;
          if (written) {
            lastWrite = now();
            lastActivity = lastWrite;
          }
        }
      }
      inFlight.decrementAndGet();
      resumeEligible();
    }

    /** The connection closed: its buffered bytes are dropped and it is never resumed. */
    void closed() {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      paused.remove(this);
      detach(address);
    }

    private void setReading(boolean on) {
      try {
        if (on) {
          connection.enableIOEvent(IOEvent.READ);
        } else {
          connection.disableIOEvent(IOEvent.READ);
        }
      } catch (IOException | RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "read interest of " + connection + ": " + e);
      }
    }
  }

  private void resumeEligible() {
    if (paused.isEmpty() || inFlight.get() >= total) {
      return;
    }
    for (Conn c : paused) {
      boolean resume = false;
      synchronized (c) {
        if (c.isPaused && !c.closed && c.mayRun()) {
          c.isPaused = false;
          paused.remove(c);
          c.setReading(true);
          resume = true;
        }
      }
      if (resume) {
        onResume.accept(c);
      }
    }
  }

  /** One call in flight; {@link #release} is idempotent. */
  static final class Ticket {
    private final Conn conn;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile boolean replySent;

    private Ticket(Conn conn) {
      this.conn = conn;
    }

    /** A reply was handed to the transport: the ticket ends when it is written. */
    void replySent() {
      replySent = true;
      conn.replyQueued();
    }

    boolean isReplySent() {
      return replySent;
    }

    /** The call ended without a reply, or its reply was written. */
    void release() {
      release(true);
    }

    /** The call ended; {@code written}: its reply (if any) reached the socket. */
    void release(boolean written) {
      if (released.compareAndSet(false, true)) {
        conn.end(replySent, written);
      }
    }
  }
}
