package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.dcache.oncrpc4j.grizzly.GrizzlyRpcTransport;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthError;
import org.dcache.oncrpc4j.rpc.RpcAuthStat;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcException;
import org.dcache.oncrpc4j.rpc.RpcRejectStatus;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * The server side of one RPC record, on the selector thread: checks the header ({@link RpcHeader}), starts the call's
 * {@link FlowControl} ticket, lets oncrpc4j decode the header and credential, and hands the call to a worker. This
 * replaces oncrpc4j's RpcProtocolFilter and RpcDispatcher, which have no header limits, no flow control and run
 * nothing on our executor. Also caps the number of open connections.
 */
final class RpcServerFilter extends BaseFilter {
  private static final System.Logger LOG = System.getLogger(RpcServerFilter.class.getName());
  private static final Attribute<FlowControl.Conn> CONN =
      Grizzly.DEFAULT_ATTRIBUTE_BUILDER.createAttribute("io.ossgw.nfs.rpc.conn");

  private final FlowControl flow;
  private final Dispatcher dispatcher;
  private final Executor workers;
  private final ReplyQueue replyQueue;
  private final int maxConnections;
  private final AtomicInteger connections = new AtomicInteger();

  RpcServerFilter(FlowControl flow, Dispatcher dispatcher, Executor workers, ReplyQueue replyQueue, int maxConnections) {
    this.flow = flow;
    this.dispatcher = dispatcher;
    this.workers = workers;
    this.replyQueue = replyQueue;
    this.maxConnections = maxConnections;
  }

  int connections() {
    return connections.get();
  }

  @Override
  public NextAction handleAccept(FilterChainContext ctx) throws IOException {
    Connection<?> c = ctx.getConnection();
    if (connections.incrementAndGet() > maxConnections) {
      connections.decrementAndGet();
      LOG.log(System.Logger.Level.WARNING, "refusing " + c.getPeerAddress() + ": " + maxConnections + " connections open");
      c.closeSilently();
      return ctx.getStopAction();
    }
    CONN.set(c, flow.new Conn(c));
    return ctx.getInvokeAction();
  }

  @Override
  public NextAction handleClose(FilterChainContext ctx) throws IOException {
    FlowControl.Conn state = CONN.remove(ctx.getConnection());
    if (state != null) {
      state.closed();
      connections.decrementAndGet();
    }
    return ctx.getInvokeAction();
  }

  @SuppressWarnings("unchecked")
  @Override
  public NextAction handleRead(FilterChainContext ctx) throws IOException {
    Connection<InetSocketAddress> c = ctx.getConnection();
    Xdr xdr = ctx.getMessage();
    FlowControl.Conn state = CONN.get(c);
    if (xdr == null || state == null) {
      return ctx.getStopAction();
    }
    RpcHeader.Verdict verdict = RpcHeader.check(xdr.asBuffer());
    if (verdict == RpcHeader.Verdict.CLOSE) {
      LOG.log(System.Logger.Level.DEBUG, "closing " + c.getPeerAddress() + ": not an RPC call");
      xdr.close();
      c.closeSilently();
      return ctx.getStopAction();
    }
    if (verdict == RpcHeader.Verdict.IGNORE) {
      xdr.close();
      return ctx.getStopAction();
    }
    FlowControl.Ticket ticket = state.begin();
    TrackedTransport transport = new TrackedTransport(
        new GrizzlyRpcTransport(c, (InetSocketAddress) ctx.getAddress(), replyQueue), ticket);
    xdr.beginDecoding();
    int xid = xdr.xdrDecodeInt();
    xdr.xdrDecodeInt(); // message type: CALL, checked above
    RpcCall call = new RpcCall(xid, xdr, transport);
    if (verdict != RpcHeader.Verdict.CALL) {
      call.reject(RpcRejectStatus.AUTH_ERROR, new RpcAuthError(
          verdict == RpcHeader.Verdict.BAD_CRED ? RpcAuthStat.AUTH_BADCRED : RpcAuthStat.AUTH_BADVERF));
      return ctx.getStopAction();
    }
    try {
      call.accept();
    } catch (RpcException e) {
      call.reject(e.getStatus(), e.getRpcReply());
      return ctx.getStopAction();
    } catch (IOException | RuntimeException e) {
      ticket.release();
      c.closeSilently();
      return ctx.getStopAction();
    }
    try {
      workers.execute(() -> dispatcher.dispatch(call, ticket));
    } catch (RejectedExecutionException e) {
      ticket.release(); // shutting down
      c.closeSilently();
    }
    return ctx.getStopAction();
  }

  @Override
  public void exceptionOccurred(FilterChainContext ctx, Throwable error) {
    LOG.log(System.Logger.Level.DEBUG, "connection " + ctx.getConnection() + " failed: " + error);
  }
}
