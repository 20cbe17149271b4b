package io.ossgw.nfs.rpc;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.CompletionHandler;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.dcache.oncrpc4j.rpc.RpcAuthException;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.EmptyCompletionHandler;
import org.glassfish.grizzly.WriteResult;
import org.glassfish.grizzly.asyncqueue.AsyncQueueEnabledTransport;
import org.glassfish.grizzly.asyncqueue.AsyncQueueWriter;
import org.glassfish.grizzly.asyncqueue.MessageCloner;
import org.glassfish.grizzly.asyncqueue.WritableMessage;

/**
 * The transport of one call: oncrpc4j's Grizzly transport, plus the call's {@link FlowControl.Ticket} and
 * {@link CallScope}, which end when the reply has been written (or failed to be). The reply is written from direct
 * memory only ({@link DirectReply}), with its record mark, as oncrpc4j's transport would write it; when no pooled head
 * buffer is to be had, by oncrpc4j's transport. A reply that cannot be written is counted, not logged.
 */
final class TrackedTransport implements RpcTransport {
  private final RpcTransport delegate;
  private final Connection<InetSocketAddress> connection;
  private final FlowControl.Ticket ticket;
  private final Runnable dropped;
  private final CallScope scope;

  /**
   * @param connection the connection {@code delegate} writes to (the reply is written to it directly)
   * @param dropped counts a reply that could not be written (the connection closed first)
   * @param scope the call's record and reply buffers, let go when the reply has been written
   */
  TrackedTransport(RpcTransport delegate, Connection<InetSocketAddress> connection, FlowControl.Ticket ticket,
      Runnable dropped, CallScope scope) {
    this.delegate = delegate;
    this.connection = connection;
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
      CompletionHandler<Integer, A> done = new CompletionHandler<>() {
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
      };
      Buffer reply = xdr.hasFileChunk() ? null : DirectReply.of(xdr.asBuffer(), scope, connection.getMemoryManager());
      if (reply == null) {
        delegate.send(xdr, attachment, done);
        return;
      }
      // Straight to the transport's asynchronous write queue, which is what a write through the filter chain ends in
      // (TCPNIOTransportFilter.handleWrite): no filter of ours handles writes, so the chain's walk (a
      // FilterChainContext per reply, the filters' executors) was pure cost on every reply.
      enqueue(connection, reply,
          new EmptyCompletionHandler<WriteResult<WritableMessage, SocketAddress>>() {
            @Override
            public void completed(WriteResult<WritableMessage, SocketAddress> result) {
              done.completed((int) result.getWrittenSize(), attachment);
            }

            @Override
            public void failed(Throwable error) {
              done.failed(error, attachment);
            }
          });
    } catch (RuntimeException e) {
      scope.end();
      ticket.release(false);
      throw e;
    }
  }

  /** Queues {@code reply} on the connection's asynchronous write queue (written at once when the queue is empty). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void enqueue(Connection c, Buffer reply,
      org.glassfish.grizzly.CompletionHandler<WriteResult<WritableMessage, SocketAddress>> handler) {
    AsyncQueueWriter writer = ((AsyncQueueEnabledTransport) c.getTransport()).getAsyncQueueIO().getWriter();
    writer.write(c, null, reply, handler, (MessageCloner) null);
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
