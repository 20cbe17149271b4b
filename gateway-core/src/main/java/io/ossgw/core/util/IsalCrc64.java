package io.ossgw.core.util;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;

/**
 * CRC-64/XZ from Intel's ISA-L ({@code libisal.so.2}, Debian {@code libisal2}): its {@code crc64_ecma_refl(seed, buf,
 * len)} folds 16 bytes per carry-less multiply (PCLMULQDQ, VPCLMULQDQ on AVX-512): 0.11 CPU-s per GiB in 256 KiB
 * direct buffers under C1 (load 14), where the table
 * method in {@link Crc64} costs 1.3-1.6 CPU-s per GiB under the launcher's C1-only JIT (issue 22, docs/benchmarks.md
 * "NFS beside nfs-ganesha": the CRC of every uploaded byte was about half the NFS write row's Java samples).
 *
 * <p>ISA-L's function takes and returns a finished CRC (it inverts on entry and exit, as zlib's {@code crc32} does), so
 * it continues {@link Crc64#update}'s values unchanged. Called through the FFM API with {@code critical} downcalls,
 * which may read heap arrays in place (no copy) and skip the thread-state transition; inputs are cut into pieces of
 * {@value #PIECE} bytes so one call never holds off a safepoint for long.
 *
 * <p>Optional: when the library is missing, cannot be opened, fails its self-test against the table method, or
 * {@code -Dio.ossgw.crc64.isal=false} is set, {@link #available()} is false and {@link Crc64} computes every CRC itself.
 * The library path can be set with {@code -Dio.ossgw.crc64.isal.library=/path/libisal.so.2}.
 */
final class IsalCrc64 {
  /** Largest piece per downcall, in bytes: about 20-100 microseconds of CRC, the longest a safepoint waits. */
  static final int PIECE = 1 << 20;

  private static final MethodHandle CRC = load();

  private IsalCrc64() {}

  /** True when ISA-L was loaded and agrees with the table method. */
  static boolean available() {
    return CRC != null;
  }

  /** The CRC continuing {@code crc} over {@code buf[off, off+len)} (the caller checked the bounds). */
  static long update(long crc, byte[] buf, int off, int len) {
    return update(crc, MemorySegment.ofArray(buf), off, len);
  }

  /** The CRC continuing {@code crc} over {@code buf}'s remaining bytes (heap or direct); its position is unchanged. */
  static long update(long crc, ByteBuffer buf) {
    return update(crc, MemorySegment.ofBuffer(buf), 0, buf.remaining());
  }

  private static long update(long crc, MemorySegment seg, long off, long len) {
    try {
      while (len > 0) {
        long n = Math.min(len, PIECE);
        crc = (long) CRC.invokeExact(crc, seg.asSlice(off, n), n);
        off += n;
        len -= n;
      }
      return crc;
    } catch (Throwable t) {
      throw new IllegalStateException("ISA-L crc64_ecma_refl failed", t);
    }
  }

  private static MethodHandle load() {
    if (!Boolean.parseBoolean(System.getProperty("io.ossgw.crc64.isal", "true"))) {
      return null;
    }
    String lib = System.getProperty("io.ossgw.crc64.isal.library", "libisal.so.2");
    try {
      SymbolLookup lookup = SymbolLookup.libraryLookup(lib, Arena.global()); // open for the life of the JVM
      MemorySegment fn = lookup.find("crc64_ecma_refl").orElse(null);
      if (fn == null) {
        return null;
      }
      MethodHandle h = Linker.nativeLinker().downcallHandle(fn,
          FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
          Linker.Option.critical(true));
      return selfTest(h) ? h : null;
    } catch (RuntimeException | LinkageError e) {
      return null; // no library (or no native access): the table method
    }
  }

  /** Checks the library against the table method on the standard check input and on a longer odd-length buffer. */
  private static boolean selfTest(MethodHandle h) {
    try {
      byte[] check = "123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      long c = (long) h.invokeExact(0L, MemorySegment.ofArray(check), (long) check.length);
      if (c != 0x995DC9BBDF1939FAL) {
        return false;
      }
      byte[] data = new byte[70_001];
      new java.util.SplittableRandom(22).nextBytes(data);
      long seed = Crc64.tableUpdate(0, data, 0, 13);
      long ours = Crc64.tableUpdate(seed, data, 13, data.length - 13);
      long theirs = (long) h.invokeExact(seed, MemorySegment.ofArray(data).asSlice(13), (long) (data.length - 13));
      return ours == theirs;
    } catch (Throwable t) {
      return false;
    }
  }
}
