package io.ossgw.nfs.rpc;

import java.net.InetSocketAddress;
import java.nio.channels.CompletionHandler;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthException;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.xdr.Xdr;

/**
 * The transport of one call: oncrpc4j's Grizzly transport, plus the call's {@link FlowControl.Ticket} and
 * {@link CallScope}, which end when the reply has been written (or failed to be). A reply that cannot be written is
 * counted, not logged.
 */
final class TrackedTransport implements RpcTransport {
  private final RpcTransport delegate;
  private final FlowControl.Ticket ticket;
  private final Runnable dropped;
  private final CallScope scope;

  /**
   * @param dropped counts a reply that could not be written (the connection closed first)
   * @param scope the call's record and reply buffers, let go when the reply has been written
   */
  TrackedTransport(RpcTransport delegate, FlowControl.Ticket ticket, Runnable dropped, CallScope scope) {
    this.delegate = delegate;
    this.ticket = ticket;
    this.dropped = dropped;
    this.scope = scope;
  }

  CallScope scope() {
    return scope;
  }

  @Override
  public <A> void send(Xdr xdr, A attachment, CompletionHandler<Integer, ? super A> handler) {
    ticket.replySent();
    try {
      delegate.send(xdr, attachment, new CompletionHandler<Integer, A>() {
        @Override
        public void completed(Integer result, A a) {
          try {
            scope.end();
          } finally {
            ticket.release();
          }
          handler.completed(result, a);
        }

        @Override
        public void failed(Throwable exc, A a) {
          // not handed on: oncrpc4j's handler logs an ERROR per reply, thousands when a client that did not read its
          // replies goes away; the drops are counted and summarised once a minute instead (ConnectionTable)
          try {
            scope.end();
          } finally {
            ticket.release(false);
            dropped.run();
          }
        }
      });
    } catch (RuntimeException e) {
      scope.end();
      ticket.release(false);
      throw e;
    }
  }

  @Override
  public ReplyQueue getReplyQueue() {
    return delegate.getReplyQueue();
  }

  @Override
  public boolean isOpen() {
    return delegate.isOpen();
  }

  @Override
  public InetSocketAddress getLocalSocketAddress() {
    return delegate.getLocalSocketAddress();
  }

  @Override
  public InetSocketAddress getRemoteSocketAddress() {
    return delegate.getRemoteSocketAddress();
  }

  @Override
  public RpcTransport getPeerTransport() {
    return delegate.getPeerTransport();
  }

  @Override
  public void startTLS() throws RpcAuthException {
    throw new RpcAuthException("TLS is not offered", new org.dcache.oncrpc4j.rpc.RpcAuthError(
        org.dcache.oncrpc4j.rpc.RpcAuthStat.AUTH_FAILED));
  }

  @Override
  public boolean isTLS() {
    return false;
  }
}
