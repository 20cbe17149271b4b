package io.ossgw.nfs.rpc;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import java.nio.ByteBuffer;
import org.dcache.oncrpc4j.rpc.RpcCall;

/**
 * Pooled direct buffers that READ data is read into and sent from: the engine copies into one once and the socket
 * takes it from there (a heap buffer costs a second copy into the JDK's temporary direct buffer, and the allocation:
 * 1 GB of heap per GiB read before). Two sizes, {@link #SMALL} and {@link #LARGE} bytes; data of at most
 * {@link #MIN_DIRECT} bytes stays on the heap, where the copy costs less than the pool's bookkeeping. A third pool of
 * {@link #HEAD} bytes holds the rest of a reply (the record mark, the RPC and NFS headers, attributes: what is encoded
 * on the heap) once it is complete, so the socket writes only direct memory: given a heap part, Grizzly copies the
 * reply into a direct buffer of the whole reply's size that it keeps per thread, and every call runs on a new virtual
 * thread, so that was a fresh {@code allocateDirect} per reply (1 MiB per 1 MiB READ), freed only when the garbage
 * collector next ran (see {@link TrackedTransport}). The head pool allocates at most a sixteenth of {@code maxBytes},
 * the two data pools half of the rest each; past that, buffers are on the heap. Thread-safe.
 */
public final class ReplyMemory {
  /** Below this many bytes reply data is a heap buffer. */
  static final int MIN_DIRECT = 32 * 1024;
  static final int SMALL = 128 * 1024;
  static final int LARGE = 1024 * 1024;
  /** Bytes per head buffer: a reply's heap-encoded parts up to this size (all but READ data and large listings). */
  static final int HEAD = 8 * 1024;

  /** A pooled buffer lent to one call. */
  record Lease(ByteBuffer buffer, ByteBuffer whole, BufferPool pool) {
    void release() {
      pool.release(whole);
    }
  }

  private final BufferPool head;
  private final BufferPool small;
  private final BufferPool large;

  /** @param maxBytes the most direct memory the three pools together allocate, in bytes */
  ReplyMemory(long maxBytes) {
    long heads = maxBytes / 16;
    this.head = new BufferPool(HEAD, new MemoryBudget(Math.max(HEAD, heads)));
    this.small = new BufferPool(SMALL, new MemoryBudget(Math.max(SMALL, (maxBytes - heads) / 2)));
    this.large = new BufferPool(LARGE, new MemoryBudget(Math.max(LARGE, (maxBytes - heads) / 2)));
  }

  /**
   * A pooled buffer of at least {@code size} bytes for the heap-encoded parts of a reply, of whichever pool fits
   * (head, small, large), or null (larger than {@link #LARGE}, or the pool is spent).
   */
  Lease leaseHead(int size) {
    BufferPool pool = size <= HEAD ? head : size <= SMALL ? small : size <= LARGE ? large : null;
    ByteBuffer whole = pool == null ? null : pool.tryAcquire();
    if (whole == null) {
      return null;
    }
    return new Lease(whole.duplicate().limit(size), whole, pool);
  }

  /** A pooled buffer of {@code size} bytes, or null (too small to be worth it, too large, or the pool is spent). */
  Lease lease(int size) {
    if (size <= MIN_DIRECT || size > LARGE) {
      return null;
    }
    BufferPool pool = size <= SMALL ? small : large;
    ByteBuffer whole = pool.tryAcquire();
    if (whole == null) {
      return null;
    }
    return new Lease(whole.duplicate().limit(size), whole, pool);
  }

  /** Pooled buffers lent to calls now (tests). */
  long buffersInUse() {
    return head.inUse() + small.inUse() + large.inUse();
  }

  /**
   * A buffer for {@code size} bytes of {@code call}'s reply data (position 0, limit {@code size}), to be encoded
   * without a copy ({@link io.ossgw.nfs.xdr.XdrWriter#bytes}) and left alone afterwards: pooled direct memory that
   * goes back when the reply has been written, when the call came through {@link RpcServer}; else a heap buffer.
   */
  public static ByteBuffer forReply(RpcCall call, int size) {
    if (call != null && call.getTransport() instanceof TrackedTransport t) {
      return t.scope().replyBuffer(size);
    }
    return ByteBuffer.allocate(size);
  }
}
