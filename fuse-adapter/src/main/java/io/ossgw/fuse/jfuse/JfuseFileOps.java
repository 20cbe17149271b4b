package io.ossgw.fuse.jfuse;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.ossgw.core.vfs.Caller;
import io.ossgw.fuse.FuseFilesystem;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.BiConsumer;
import org.cryptomator.jfuse.linux.amd64.extr.fuse3.fuse_file_info;
import org.cryptomator.jfuse.linux.amd64.extr.fuse3.fuse_operations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operations that libfuse 3 may call with a NULL path, as our own FFM upcalls in jfuse's {@code struct
 * fuse_operations} (written over jfuse's entries before {@code fuse_new} copies the struct).
 *
 * <p>Why: with {@code hard_remove} (an option; by default the adapter keeps libfuse's {@code .fuse_hidden*} names in
 * memory instead, see HiddenNames) libfuse 3 passes {@code path == NULL} for an unlinked file that is still open
 * (its {@code get_path_nullok} turns ESTALE into a NULL path) to getattr/truncate/chmod/chown/utimens with a file
 * handle and to read, write, flush, fsync and release. jfuse 0.7.3 converts every path with {@code
 * MemorySegment.getString(0)} unconditionally, which reads address 0 and kills the JVM with SIGSEGV (seen in
 * FileIoMountTest#unlinkedOpenFileStaysReadableAndLeavesNoHiddenFile). These upcalls map NULL to a null path, which
 * FuseFilesystem accepts for fh-based operations, exactly as the jnr binding passes it. READ and WRITE hand
 * FuseFilesystem a ByteBuffer over libfuse's request buffer: no copy. getattr (every LOOKUP) and symlink's target
 * pass the path's bytes, decoded strictly by FuseFilesystem: getString would put U+FFFD in place of invalid UTF-8.
 *
 * <p>Native layouts come from jfuse's own generated classes ({@code fuse_file_info.fh} @16, {@code struct stat} via
 * {@link JfuseStructs}); {@code struct timespec[2]} is {sec, nsec, sec, nsec} of 64-bit values on x86-64.
 */
final class JfuseFileOps {
  private static final Logger LOG = LoggerFactory.getLogger(JfuseFileOps.class);
  private static final int EIO = 5;
  private static final long FI_SIZE = fuse_file_info.sizeof();
  private static final long FH = fuse_file_info.fh$offset();

  private final FuseFilesystem fs;
  private final JfuseNative nat;
  private final int blksize;

  JfuseFileOps(FuseFilesystem fs, JfuseNative nat) {
    this.fs = fs;
    this.nat = nat;
    this.blksize = Math.min(fs.preferredIoSize(), FuseOptions.MAX_REQUEST);
  }

  /** Writes this object's upcall stubs into {@code ops} ({@code struct fuse_operations}); they live in {@code arena}. */
  void install(MemorySegment ops, Arena arena) {
    MemorySegment o = ops.reinterpret(fuse_operations.layout().byteSize());
    set(o, fuse_operations::getattr, stub(arena, "getattr", JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    set(o, fuse_operations::chmod, stub(arena, "chmod", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    set(o, fuse_operations::chown, stub(arena, "chown", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    set(o, fuse_operations::truncate, stub(arena, "truncate", JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS));
    set(o, fuse_operations::utimens, stub(arena, "utimens", JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    set(o, fuse_operations::read, stub(arena, "read", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    set(o, fuse_operations::write, stub(arena, "write", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    set(o, fuse_operations::flush, stub(arena, "flush", JAVA_INT, ADDRESS, ADDRESS));
    set(o, fuse_operations::release, stub(arena, "release", JAVA_INT, ADDRESS, ADDRESS));
    set(o, fuse_operations::fsync, stub(arena, "fsync", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    set(o, fuse_operations::symlink, stub(arena, "symlink", JAVA_INT, ADDRESS, ADDRESS));
    // jfuse's API has no mknod (its Operation enum lacks it): int (*mknod)(const char *, mode_t, dev_t)
    set(o, fuse_operations::mknod, stub(arena, "mknod", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG));
  }

  private static void set(MemorySegment ops, BiConsumer<MemorySegment, MemorySegment> slot, MemorySegment fn) {
    slot.accept(ops, fn);
  }

  private MemorySegment stub(Arena arena, String name, java.lang.foreign.MemoryLayout ret,
      java.lang.foreign.MemoryLayout... args) {
    FunctionDescriptor d = FunctionDescriptor.of(ret, args);
    try {
      MethodHandle h = MethodHandles.lookup().findVirtual(JfuseFileOps.class, name, d.toMethodType()).bindTo(this);
      return Linker.nativeLinker().upcallStub(h, d, arena);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("no upcall method " + name + d.toMethodType(), e);
    }
  }

  // ---- upcalls: each catches everything (an exception escaping an upcall ends the JVM) ----

  int getattr(MemorySegment path, MemorySegment stat, MemorySegment fi) {
    String p = null;
    try {
      MemorySegment st = NativeMemory.at(stat, JfuseStructs.STAT_SIZE);
      if (!isNull(fi)) {
        p = path(path);
        return fs.fgetattr(p, fh(fi), a -> JfuseStructs.putStat(st, a, blksize));
      }
      if (isNull(path)) {
        return fs.getattr((String) null, a -> JfuseStructs.putStat(st, a, blksize));
      }
      // the path's bytes, not getString(0): that replaces invalid UTF-8 with U+FFFD, merging distinct names
      return fs.getattr(NativeMemory.bytes(path), a -> JfuseStructs.putStat(st, a, blksize));
    } catch (Throwable t) {
      return glue("getattr", p, t);
    }
  }

  int chmod(MemorySegment path, int mode, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      return fs.chmod(p, mode, nat.caller());
    } catch (Throwable t) {
      return glue("chmod", p, t);
    }
  }

  int chown(MemorySegment path, int uid, int gid, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      return fs.chown(p, uid, gid, nat.caller());
    } catch (Throwable t) {
      return glue("chown", p, t);
    }
  }

  int truncate(MemorySegment path, long size, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      Caller c = nat.caller();
      return isNull(fi) ? fs.truncate(p, size, c) : fs.ftruncate(p, fh(fi), size, c);
    } catch (Throwable t) {
      return glue("truncate", p, t);
    }
  }

  int utimens(MemorySegment path, MemorySegment tv, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      MemorySegment t = NativeMemory.at(tv, 32);
      return fs.utimens(p, t.get(JAVA_LONG, 0), t.get(JAVA_LONG, 8), t.get(JAVA_LONG, 16), t.get(JAVA_LONG, 24),
          nat.caller());
    } catch (Throwable t) {
      return glue("utimens", p, t);
    }
  }

  int read(MemorySegment path, MemorySegment buf, long size, long offset, MemorySegment fi) {
    try {
      return fs.read(null, fh(fi), offset, NativeMemory.buffer(buf.address(), size));
    } catch (Throwable t) {
      return glue("read", null, t);
    }
  }

  int write(MemorySegment path, MemorySegment buf, long size, long offset, MemorySegment fi) {
    try {
      return fs.write(null, fh(fi), offset, NativeMemory.buffer(buf.address(), size));
    } catch (Throwable t) {
      return glue("write", null, t);
    }
  }

  int flush(MemorySegment path, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      return fs.flush(p, fh(fi));
    } catch (Throwable t) {
      return glue("flush", p, t);
    }
  }

  int release(MemorySegment path, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      return fs.release(p, fh(fi));
    } catch (Throwable t) {
      return glue("release", p, t);
    }
  }

  int fsync(MemorySegment path, int datasync, MemorySegment fi) {
    String p = null;
    try {
      p = path(path);
      return fs.fsync(p, fh(fi), datasync != 0);
    } catch (Throwable t) {
      return glue("fsync", p, t);
    }
  }

  /** symlink with the target's bytes: jfuse's getString would put U+FFFD in place of invalid UTF-8. */
  int symlink(MemorySegment target, MemorySegment link) {
    String p = null;
    try {
      p = path(link);
      return fs.symlink(NativeMemory.bytes(target), p, nat.caller());
    } catch (Throwable t) {
      return glue("symlink", p, t);
    }
  }

  int mknod(MemorySegment path, int mode, long rdev) {
    String p = null;
    try {
      p = path(path);
      return fs.mknod(p, mode, rdev, nat.caller());
    } catch (Throwable t) {
      return glue("mknod", p, t);
    }
  }

  private static boolean isNull(MemorySegment s) {
    return s.address() == 0;
  }

  /** The C string at {@code s} (UTF-8), or null for a NULL pointer. */
  private static String path(MemorySegment s) {
    return isNull(s) ? null : NativeMemory.string(s);
  }

  private static long fh(MemorySegment fi) {
    return NativeMemory.at(fi, FI_SIZE).get(JAVA_LONG, FH);
  }

  private static int glue(String op, String path, Throwable t) {
    LOG.warn("FUSE {} {}: binding failure; answered EIO", op, path, t);
    return -EIO;
  }
}
