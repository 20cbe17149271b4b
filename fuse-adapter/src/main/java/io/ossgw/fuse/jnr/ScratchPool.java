package io.ossgw.fuse.jnr;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * Reusable direct buffers for READLINK (READ and WRITE use a view of libfuse's buffer instead, see {@code
 * JnrCallbacks#view}): the link target is copied out of one with a
 * native {@code memcpy} ({@link Pointer#transferTo}/{@link Pointer#transferFrom} between two direct pointers), and
 * the VFS sees an ordinary direct {@link ByteBuffer}. Nothing is allocated per request once the pool is warm.
 *
 * <p>A pool rather than one buffer per thread: in jnr-fuse's multithreaded mode jffi attaches each libfuse worker to
 * the JVM afresh for every upcall until the thread has made 1000 of them (shared/reference/fuse.md §5), so each upcall
 * may run on a new {@code java.lang.Thread} and a ThreadLocal would allocate a fresh 128 KiB buffer almost every time.
 * An uncontended lock around an array stack costs tens of nanoseconds next to a ~10 µs upcall.
 */
final class ScratchPool {
  /** One direct buffer and a jnr pointer to the same memory. */
  static final class Scratch {
    final ByteBuffer buffer;
    final Pointer pointer;
    final int capacity;

    Scratch(Runtime runtime, int capacity) {
      this.buffer = ByteBuffer.allocateDirect(capacity);
      this.pointer = Pointer.wrap(runtime, MemorySegment.ofBuffer(buffer).address(), capacity);
      this.capacity = capacity;
    }
  }

  private final Runtime runtime;
  private final int bufferSize;
  private final Scratch[] stack;
  private int size;

  /**
   * @param bufferSize bytes per buffer (the largest request)
   * @param maxPooled buffers kept for reuse; more may exist while more requests run at once, and are dropped after
   */
  ScratchPool(Runtime runtime, int bufferSize, int maxPooled) {
    this.runtime = runtime;
    this.bufferSize = bufferSize;
    this.stack = new Scratch[maxPooled];
  }

  int bufferSize() {
    return bufferSize;
  }

  Scratch acquire() {
    synchronized (this) {
      if (size > 0) {
        Scratch s = stack[--size];
        stack[size] = null;
        return s;
      }
    }
    return new Scratch(runtime, bufferSize);
  }

  void release(Scratch s) {
    synchronized (this) {
      if (size < stack.length) {
        stack[size++] = s;
      }
    }
  }
}
