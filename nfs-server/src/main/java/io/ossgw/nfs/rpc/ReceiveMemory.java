package io.ossgw.nfs.rpc;

import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.ByteBufferWrapper;
import org.glassfish.grizzly.memory.MemoryManager;
import org.glassfish.grizzly.memory.MemoryProbe;
import org.glassfish.grizzly.monitoring.DefaultMonitoringConfig;
import org.glassfish.grizzly.monitoring.MonitoringConfig;

/**
 * The memory the RPC server's sockets are read into: pooled direct buffers of {@link #PIECE} bytes ("pieces"), so
 * the kernel copies received bytes straight into memory that WRITE data is then handed from to the engine (one copy
 * in user space: piece to staging), with no heap buffer and no per-read allocation. Grizzly's heap memory manager
 * read into a thread's direct buffer, copied that into a fresh heap array, and a record over several reads was copied
 * again when decoded (2.2 GB of heap per GiB written, issue 14).
 *
 * <p>A piece is shared by the connection's {@link RecordStream} (until it has parsed every byte of it) and by the
 * calls whose records lie in it (until each call ends: {@link CallScope}); it goes back to the pool when the last of
 * them lets go. Direct memory is bounded: the pool allocates at most {@code maxBytes} (in use and idle); past that,
 * and for anything but socket reads (Grizzly's small buffers: record markers, composites), buffers are on the heap.
 * Thread-safe.
 */
final class ReceiveMemory implements MemoryManager<Buffer> {
  /** Bytes per piece: one socket read takes up to this much. */
  static final int PIECE = 256 * 1024;

  private final BufferPool pool;
  private final DefaultMonitoringConfig<MemoryProbe> monitoring = new DefaultMonitoringConfig<>(MemoryProbe.class);

  /** @param maxBytes the most direct memory the pool allocates, in bytes */
  ReceiveMemory(long maxBytes) {
    this.pool = new BufferPool(PIECE, new MemoryBudget(Math.max(PIECE, maxBytes)));
  }

  /** A piece for a socket read: at least {@code size} bytes, pooled and direct while the pool allows. */
  @Override
  public Buffer allocateAtLeast(int size) {
    if (size <= PIECE) {
      ByteBuffer b = pool.tryAcquire();
      if (b != null) {
        return new Piece(b, pool);
      }
    }
    return new Piece(ByteBuffer.allocate(Math.max(size, PIECE)), null);
  }

  /** Reads are the only large buffers; anything else Grizzly asks for is small and lives on the heap. */
  @Override
  public Buffer allocate(int size) {
    return new ByteBufferWrapper(ByteBuffer.allocate(size));
  }

  @Override
  public Buffer reallocate(Buffer old, int newSize) {
    Buffer b = allocate(newSize);
    int pos = old.position();
    old.flip();
    b.put(old);
    b.position(Math.min(pos, newSize));
    return b;
  }

  @Override
  public void release(Buffer buffer) {
    buffer.tryDispose();
  }

  /** True: socket reads go straight into {@link #allocateAtLeast} (Grizzly copies otherwise). */
  @Override
  public boolean willAllocateDirect(int size) {
    return true;
  }

  /** Pooled pieces in use now: held by a record stream or a call (tests). */
  long piecesInUse() {
    return pool.inUse();
  }

  @Override
  public MonitoringConfig<MemoryProbe> getMonitoringConfig() {
    return monitoring;
  }

  /**
   * One socket read's buffer, counted by its users: the record stream that parses it holds one reference from
   * {@link #adopt} until it has consumed every byte, each record with bytes in it one more until its call ends.
   * Grizzly disposes a piece that received nothing (end of stream); once adopted, only {@link #releaseRef} frees it.
   */
  static final class Piece extends ByteBufferWrapper {
    private final ByteBuffer whole;
    private final BufferPool pool;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final AtomicBoolean adopted = new AtomicBoolean();

    private static final System.Logger LOG = System.getLogger(ReceiveMemory.class.getName());

    Piece(ByteBuffer whole, BufferPool pool) {
      super(whole.duplicate());
      this.whole = whole;
      this.pool = pool;
    }

    /** The record stream takes this piece over (its first reference). */
    void adopt() {
      adopted.set(true);
    }

    /** One more user (a record with bytes here). */
    void retainRef() {
      if (refs.getAndIncrement() <= 0) {
        LOG.log(System.Logger.Level.ERROR, "receive buffer retained after it was released",
            new IllegalStateException());
      }
    }

    /** One user less; the last one gives the buffer back to the pool. */
    void releaseRef() {
      int left = refs.decrementAndGet();
      if (left == 0 && pool != null) {
        pool.release(whole);
      } else if (left < 0) {
        // a bug; the buffer went back to the pool at 0 already, so it must not go twice: say so and go on
        LOG.log(System.Logger.Level.ERROR, "receive buffer released more often than retained",
            new IllegalStateException());
      }
    }

    /** Users now (tests). */
    int refs() {
      return refs.get();
    }

    @Override
    public void dispose() {
      // Grizzly disposes the buffer of a read that got nothing; a piece the stream adopted is freed by its users
      if (adopted.compareAndSet(false, true)) {
        releaseRef();
      }
    }
  }
}
