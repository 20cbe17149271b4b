package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;

/**
 * Caps the calls in flight, per connection and in total. A call is in flight from the moment its record is complete
 * until its reply has been written to the socket (or dropped), so the cap bounds both the requests waiting for a
 * worker and the replies queued in Grizzly's unbounded write queue (oncrpc4j #119). When a connection reaches its cap,
 * or the server its total, the connection stops being read (its READ interest is switched off) until calls finish;
 * the client then waits in TCP flow control, and nothing is dropped.
 */
final class FlowControl {
  private static final System.Logger LOG = System.getLogger(FlowControl.class.getName());
  private final int perConnection;
  private final int total;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<Conn> paused = ConcurrentHashMap.newKeySet();

  /**
   * @param perConnection most calls in flight on one connection
   * @param total most calls in flight on the whole server
   */
  FlowControl(int perConnection, int total) {
    this.perConnection = perConnection;
    this.total = total;
  }

  /** Calls in flight on the server now. */
  int inFlight() {
    return inFlight.get();
  }

  /** Per-connection state, kept as a Grizzly connection attribute. */
  final class Conn {
    private final Connection<?> connection;
    private int calls;
    private boolean isPaused;

    Conn(Connection<?> connection) {
      this.connection = connection;
    }

    /** Starts a call on this connection; stops reading it when a cap is reached. */
    Ticket begin() {
      int mine;
      synchronized (this) {
        mine = ++calls;
      }
      int all = inFlight.incrementAndGet();
      if (mine >= perConnection || all >= total) {
        pause();
      }
      return new Ticket(this);
    }

    private void pause() {
      synchronized (this) {
        isPaused = true;
        paused.add(this);
        // called again even when already paused: a resume queued to the selector may have re-enabled reading
        setReading(false);
      }
    }

    private void end() {
      synchronized (this) {
        calls--;
      }
      inFlight.decrementAndGet();
      resumeEligible();
    }

    /** The connection closed: it no longer waits to be resumed. */
    void closed() {
      paused.remove(this);
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
      synchronized (c) {
        if (c.isPaused && c.calls < perConnection && inFlight.get() < total) {
          c.isPaused = false;
          paused.remove(c);
          if (c.connection.isOpen()) {
            c.setReading(true);
          }
        }
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
    }

    boolean isReplySent() {
      return replySent;
    }

    void release() {
      if (released.compareAndSet(false, true)) {
        conn.end();
      }
    }
  }
}
