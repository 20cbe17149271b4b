package io.ossgw.fuse;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * A {@link RequestMark} kept in libfuse's own per-request state: the {@code pid} field of the calling thread's {@code
 * struct fuse_context} (fuse.h, libfuse 2.8+ and 3.x alike: {@code struct fuse *fuse} @0, {@code uid_t uid} @8, {@code
 * gid_t gid} @12, {@code pid_t pid} @16). libfuse's high-level layer fills that struct afresh at the start of every
 * request it serves on the thread ({@code req_fuse_prepare} in lib/fuse.c copies uid, gid and pid from the request)
 * and never reads {@code pid} back itself; neither binding reads it (the callers' credentials are uid and gid). So a
 * value written into it during a request is seen by the later calls of the same request on that thread, and is gone
 * when the thread takes the next request.
 *
 * <p>The mark: bit 31 set (a process id is never negative) and a 9-bit hash of the path in bits 22-30; the caller's
 * process id, below 2^22 (Linux's {@code PID_MAX_LIMIT}), stays in bits 0-21 and is put back by {@link #take}. Outside
 * a request ({@code fuse_get_context()} returns NULL) nothing is marked.
 *
 * <p>Costs a downcall per use; used only for names of libfuse's hidden form ({@link HiddenNames}).
 */
public final class FuseContextMark implements RequestMark {
  private static final long PID_OFFSET = 16;
  private static final int MARK = 1 << 31;
  private static final int HASH_SHIFT = 22;
  private static final int HASH_MASK = 0x1FF;
  private static final int PID_MASK = (1 << HASH_SHIFT) - 1;

  private final MethodHandle getContext;

  /**
   * @param getContext a downcall handle of libfuse's {@code struct fuse_context *fuse_get_context(void)} (no arguments,
   *     returns an address), from the library the binding serves with
   */
  public FuseContextMark(MethodHandle getContext) {
    this.getContext = Objects.requireNonNull(getContext, "getContext");
  }

  @Override
  public void set(String path) {
    MemorySegment ctx = context();
    if (ctx != null) {
      int pid = ctx.get(ValueLayout.JAVA_INT, PID_OFFSET);
      ctx.set(ValueLayout.JAVA_INT, PID_OFFSET, MARK | hash(path) << HASH_SHIFT | (pid & PID_MASK));
    }
  }

  @Override
  public boolean take(String path) {
    MemorySegment ctx = context();
    if (ctx == null) {
      return false;
    }
    int v = ctx.get(ValueLayout.JAVA_INT, PID_OFFSET);
    if ((v & MARK) == 0) {
      return false;
    }
    ctx.set(ValueLayout.JAVA_INT, PID_OFFSET, v & PID_MASK);
    return (v >>> HASH_SHIFT & HASH_MASK) == hash(path);
  }

  private MemorySegment context() {
    MemorySegment ctx;
    try {
      ctx = (MemorySegment) getContext.invokeExact();
    } catch (Throwable t) {
      throw new IllegalStateException("fuse_get_context failed", t);
    }
    return ctx.equals(MemorySegment.NULL) ? null : NativeMemory.at(ctx, PID_OFFSET + Integer.BYTES);
  }

  static int hash(String path) {
    return path.hashCode() * 0x9E3779B9 >>> 23; // the top 9 bits of a mixed hash
  }
}
