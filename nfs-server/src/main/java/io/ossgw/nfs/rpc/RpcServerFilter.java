package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.dcache.oncrpc4j.grizzly.GrizzlyRpcTransport;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthError;
import org.dcache.oncrpc4j.rpc.RpcAuthStat;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcException;
import org.dcache.oncrpc4j.rpc.RpcRejectStatus;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * The server side of a connection: takes RPC records out of the received bytes ({@link RecordStream}, with size
 * limits) while the connection is under its in-flight caps ({@link FlowControl}), checks each call header
 * ({@link RpcHeader}), lets oncrpc4j decode header and credential, and hands the call to a worker. Replaces
 * oncrpc4j's RpcMessageParserTCP, RpcProtocolFilter and RpcDispatcher, which have no record limit, no header limits,
 * no flow control. Admits, times out and evicts connections through {@link ConnectionTable}.
 */
final class RpcServerFilter extends BaseFilter {
  private static final System.Logger LOG = System.getLogger(RpcServerFilter.class.getName());
  private static final Attribute<FlowControl.Conn> CONN =
      Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute("io.ossgw.nfs.rpc.conn");

  private final FlowControl flow;
  private final ConnectionTable table;
  private final Dispatcher dispatcher;
  private final Executor workers;
  private final ReplyQueue replyQueue;
  private final ReplyMemory replies;
  private final int maxRecord;
  private final int maxFragments;

  RpcServerFilter(RpcServer.Limits limits, Dispatcher dispatcher, Executor workers, ReplyQueue replyQueue,
      ReplyMemory replies, LongSupplier clock, Predicate<InetAddress> allowed) {
    this.flow = new FlowControl(limits.perConnectionInFlight(), limits.perPeerInFlight(), limits.totalInFlight(),
        clock, this::drain);
    this.table = new ConnectionTable(flow, limits.maxConnections(), ConnectionTable.Timeouts.of(limits.idleTimeout(),
        limits.recordTimeout(), limits.stallTimeout()), allowed);
    this.dispatcher = dispatcher;
    this.workers = workers;
    this.replyQueue = replyQueue;
    this.replies = replies;
    this.maxRecord = limits.maxRecord();
    this.maxFragments = limits.maxFragments();
  }

  ConnectionTable table() {
    return table;
  }

  int connections() {
    return table.size();
  }

  int inFlight() {
    return flow.inFlight();
  }

  int inFlight(InetAddress address) {
    return flow.inFlight(address);
  }

  @Override
  public NextAction handleAccept(FilterChainContext ctx) throws IOException {
    Connection<?> c = ctx.getConnection();
    if (!table.admit((SocketAddress) c.getPeerAddress())) {
      LOG.log(System.Logger.Level.DEBUG, "refusing " + c.getPeerAddress());
      c.closeSilently();
      return ctx.getStopAction();
    }
    FlowControl.Conn state = flow.new Conn(c, new RecordStream(c.getMemoryManager(), maxRecord, maxFragments));
    CONN.set(c, state);
    table.added(state);
    return ctx.getInvokeAction();
  }

  @Override
  public NextAction handleClose(FilterChainContext ctx) throws IOException {
    FlowControl.Conn state = CONN.remove(ctx.getConnection());
    if (state != null) {
      synchronized (state) {
        state.records.close(); // the pieces of records not yet taken go back to the pool
      }
      state.closed();
      table.removed(state);
    }
    return ctx.getInvokeAction();
  }

  @Override
  public NextAction handleRead(FilterChainContext ctx) throws IOException {
    Buffer received = ctx.getMessage();
    FlowControl.Conn state = CONN.get(ctx.getConnection());
    if (received == null || state == null) {
      return ctx.getStopAction();
    }
    synchronized (state) {
      state.records.append(received);
      state.received();
    }
    drain(state);
    return ctx.getStopAction();
  }

  /** Starts calls for the complete records of a connection until none is left or the connection is paused. */
  private void drain(FlowControl.Conn state) {
    while (true) {
      RecordStream.Record record;
      RpcHeader.Verdict verdict;
      FlowControl.Ticket ticket;
      synchronized (state) {
        if (state.paused()) {
          return;
        }
        try {
          record = state.records.next();
        } catch (RecordStream.OversizeException e) {
          LOG.log(System.Logger.Level.DEBUG, "closing " + state.connection.getPeerAddress() + ": " + e.getMessage());
          table.counters().closedOversize.incrementAndGet();
          state.connection.closeSilently();
          return;
        }
        if (record == null) {
          return;
        }
        state.tookRecord();
        verdict = RpcHeader.check(record.xdr().asBuffer());
        if (verdict == RpcHeader.Verdict.CLOSE) {
          record.release();
          LOG.log(System.Logger.Level.DEBUG, "closing " + state.connection.getPeerAddress() + ": not an RPC call");
          state.connection.closeSilently();
          return;
        }
        if (verdict == RpcHeader.Verdict.IGNORE) {
          record.release();
          continue;
        }
        ticket = state.begin(); // may pause the connection: the next turn of the loop then stops
      }
      // replies are sent outside the connection's monitor: a write that completes at once ends its ticket, which may
      // resume a paused connection
      if (verdict == RpcHeader.Verdict.CALL) {
        start(state, record, ticket);
      } else {
        reject(state, record, ticket, verdict);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private RpcCall callOf(FlowControl.Conn state, RecordStream.Record rec, FlowControl.Ticket ticket) {
    Connection<InetSocketAddress> c = (Connection<InetSocketAddress>) state.connection;
    TrackedTransport transport = new TrackedTransport(new GrizzlyRpcTransport(c, c.getPeerAddress(), replyQueue), c,
        ticket, table::replyDropped, new CallScope(rec, replies));
    Xdr record = rec.xdr();
    record.beginDecoding();
    try {
      int xid = record.xdrDecodeInt();
      record.xdrDecodeInt(); // message type CALL, checked by RpcHeader
      return new RpcCall(xid, record, transport);
    } catch (IOException e) {
      throw new IllegalStateException("checked header is short", e);
    }
  }

  private void reject(FlowControl.Conn state, RecordStream.Record record, FlowControl.Ticket ticket,
      RpcHeader.Verdict verdict) {
    callOf(state, record, ticket).reject(RpcRejectStatus.AUTH_ERROR, new RpcAuthError(
        verdict == RpcHeader.Verdict.BAD_CRED ? RpcAuthStat.AUTH_BADCRED : RpcAuthStat.AUTH_BADVERF));
  }

  private void start(FlowControl.Conn state, RecordStream.Record record, FlowControl.Ticket ticket) {
    RpcCall call = callOf(state, record, ticket);
    CallScope scope = ((TrackedTransport) call.getTransport()).scope();
    try {
      call.accept();
    } catch (RpcException e) {
      call.reject(e.getStatus(), e.getRpcReply());
      return;
    } catch (IOException | RuntimeException e) {
      scope.end();
      ticket.release();
      state.connection.closeSilently();
      return;
    }
    try {
      workers.execute(() -> dispatcher.dispatch(call, ticket, scope));
    } catch (RejectedExecutionException e) {
      scope.end();
      ticket.release(); // shutting down
      state.connection.closeSilently();
    }
  }

  @Override
  public void exceptionOccurred(FilterChainContext ctx, Throwable error) {
    LOG.log(System.Logger.Level.DEBUG, "connection " + ctx.getConnection() + " failed: " + error);
  }
}
