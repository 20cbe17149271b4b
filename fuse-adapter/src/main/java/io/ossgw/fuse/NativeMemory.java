package io.ossgw.fuse;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Views of native memory libfuse hands a callback (paths, {@code struct stat}, {@code fuse_file_info}, request
 * buffers, {@code fuse_context}) by address, cut from one segment over the whole address space that is made once.
 *
 * <p>Why: {@link MemorySegment#reinterpret(long)} is a restricted, caller-sensitive method (JDK 22+, JEP 454): every
 * call asks {@code Reflection.getCallerClass()} for the caller's module, and C1, the gateway's only JIT, does not
 * intrinsify that, so each call walked the stack in the JVM ({@code JVM_GetCallerClass}): 3 % of a warm mount's CPU
 * over 1,000 {@code touch}es, several walks per callback (docs/benchmarks.md, "Fourteenth pass"). {@link
 * MemorySegment#asSlice(long, long)} of an existing segment is neither restricted nor caller-sensitive, so the one
 * {@code reinterpret} here, run once when the class initializes, is the only one the callbacks pay.
 *
 * <p>The views are unchecked like any native pointer: the caller vouches for the address and the size, exactly as it
 * did with {@code reinterpret}; they are valid as long as libfuse keeps the memory (the callback, for its arguments).
 */
public final class NativeMemory {
  /** Every address from 0 up: the segment the views are sliced from (global scope, never freed). */
  private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

  private NativeMemory() {}

  /**
   * The {@code size} bytes at {@code address}.
   *
   * @param address a native address (not 0) the caller knows to be readable and writable for {@code size} bytes
   * @throws IndexOutOfBoundsException for a negative address or size
   */
  public static MemorySegment at(long address, long size) {
    return ALL.asSlice(address, size);
  }

  /** The {@code size} bytes at {@code pointer}'s address (a zero-length segment as the FFM API passes pointers). */
  public static MemorySegment at(MemorySegment pointer, long size) {
    return at(pointer.address(), size);
  }

  /** A direct ByteBuffer over the {@code size} bytes at {@code address} (at most {@link Integer#MAX_VALUE}). */
  public static ByteBuffer buffer(long address, long size) {
    return at(address, size).asByteBuffer();
  }

  /**
   * The NUL-terminated C string at {@code pointer}, decoded as UTF-8 (invalid bytes become U+FFFD, as {@link
   * MemorySegment#getString(long)}); the caller checks for NULL first.
   */
  public static String string(MemorySegment pointer) {
    return ALL.getString(pointer.address());
  }

  /**
   * The bytes of the NUL-terminated C string at {@code pointer} (not NULL), without the NUL: undecoded, so a caller
   * can refuse invalid UTF-8 instead of seeing U+FFFD. ISO-8859-1 maps every byte to one char and back, so reading
   * the string in it and encoding it again returns the bytes exactly, found by the JDK's word-at-a-time {@code strlen}.
   */
  public static byte[] bytes(MemorySegment pointer) {
    return ALL.getString(pointer.address(), StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1);
  }
}
