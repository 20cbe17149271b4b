package io.ossgw.nfs.rpc;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one call holds until it ends: the received record its arguments are read from (WRITE data is a view of it) and
 * the pooled buffers its reply is encoded from (READ data). Both go back to their pools at {@link #end}, which runs
 * once, when the reply has been written to the socket, when the reply could not be written, or when the call ended
 * without one: before that the socket may still be reading the reply's bytes. Thread-safe.
 */
final class CallScope {
  private final RecordStream.Record record;
  private final ReplyMemory replies;
  private final AtomicBoolean ended = new AtomicBoolean();
  private List<ReplyMemory.Lease> leases;

  /**
   * @param record the call's record, or null
   * @param replies where reply buffers come from, or null (then they are heap buffers)
   */
  CallScope(RecordStream.Record record, ReplyMemory replies) {
    this.record = record;
    this.replies = replies;
  }

  /**
   * A buffer of {@code size} bytes (position 0, limit {@code size}) for reply data, valid until the call ends: pooled
   * direct memory when the size is worth it and the pool has some, else the heap.
   */
  ByteBuffer replyBuffer(int size) {
    ByteBuffer b = hold(replies == null || ended.get() ? null : replies.lease(size));
    return b != null ? b : ByteBuffer.allocate(size);
  }

  /**
   * A pooled direct buffer of {@code size} bytes (position 0, limit {@code size}) for the heap-encoded parts of the
   * finished reply ({@link DirectReply}), valid until the call ends; null when there is no pool, the size is over
   * {@link ReplyMemory#LARGE} or the pool is spent.
   */
  ByteBuffer headBuffer(int size) {
    return hold(replies == null || ended.get() ? null : replies.leaseHead(size));
  }

  /** The lease's buffer, kept until {@link #end}; null for no lease, or when the call has ended meanwhile. */
  private ByteBuffer hold(ReplyMemory.Lease lease) {
    if (lease == null) {
      return null;
    }
    synchronized (this) {
      if (ended.get()) {
        lease.release();
        return null;
      }
      if (leases == null) {
        leases = new ArrayList<>(2);
      }
      leases.add(lease);
    }
    return lease.buffer();
  }

  /** The call is over: its record and reply buffers go back. Later calls do nothing. */
  void end() {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    if (record != null) {
      record.release();
    }
    List<ReplyMemory.Lease> held;
    synchronized (this) {
      held = leases;
      leases = null;
    }
    if (held != null) {
      held.forEach(ReplyMemory.Lease::release);
    }
  }
}
