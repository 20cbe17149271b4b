package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.IOEvent;

/**
 * Caps the calls in flight, per connection and in total. A call is in flight from the moment its record is taken
 * from the connection's {@link RecordStream} until its reply has been written to the socket (or dropped), so the caps
 * bound both the requests waiting for a worker and the replies queued in Grizzly's unbounded write queue (oncrpc4j
 * #119). At a cap the connection is paused: no further record is taken from what it already sent, and its socket is
 * not read (READ interest off), so the client waits in TCP flow control and nothing is dropped. When calls finish the
 * connection resumes and its buffered records are taken first ({@code onResume}).
 */
final class FlowControl {
  private static final System.Logger LOG = System.getLogger(FlowControl.class.getName());
  private final int perConnection;
  private final int total;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<Conn> paused = ConcurrentHashMap.newKeySet();
  private final Consumer<Conn> onResume;

  /**
   * @param perConnection most calls in flight on one connection
   * @param total most calls in flight on the whole server
   * @param onResume takes the buffered records of a connection that may run calls again (any thread)
   */
  FlowControl(int perConnection, int total, Consumer<Conn> onResume) {
    this.perConnection = perConnection;
    this.total = total;
    this.onResume = onResume;
  }

  /** Calls in flight on the server now. */
  int inFlight() {
    return inFlight.get();
  }

  /** Per-connection state: its calls, its received bytes, whether it is paused. Its monitor guards the stream. */
  final class Conn {
    final Connection<?> connection;
    final RecordStream records;
    private int calls;
    private boolean isPaused;
    private boolean closed;

    Conn(Connection<?> connection, RecordStream records) {
      this.connection = connection;
      this.records = records;
    }

    /** True while the connection may not start calls (the caller holds this monitor). */
    boolean paused() {
      return isPaused || closed;
    }

    /**
     * Starts a call; pauses the connection when this reaches a cap. Call with this monitor held, before the next
     * record is taken.
     */
    Ticket begin() {
      calls++;
      int all = inFlight.incrementAndGet();
      if (calls >= perConnection || all >= total) {
        isPaused = true;
        paused.add(this);
        setReading(false);
      }
      return new Ticket(this);
    }

    private void end() {
      synchronized (this) {
        calls--;
      }
      inFlight.decrementAndGet();
      resumeEligible();
    }

    /** The connection closed: its buffered bytes are dropped and it is never resumed. */
    void closed() {
      synchronized (this) {
        closed = true;
      }
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
      boolean resume = false;
      synchronized (c) {
        if (c.isPaused && !c.closed && c.calls < perConnection && inFlight.get() < total) {
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
