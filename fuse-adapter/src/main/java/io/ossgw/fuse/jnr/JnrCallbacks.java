package io.ossgw.fuse.jnr;

import io.ossgw.core.vfs.Caller;
import io.ossgw.fuse.FuseConnection;
import io.ossgw.fuse.FuseFilesystem;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.NativeMemory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Struct;
import jnr.ffi.annotations.Delegate;
import jnr.ffi.mapper.FromNativeConverter;
import jnr.ffi.provider.jffi.ClosureHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.LibFuse;
import ru.serce.jnrfuse.struct.FuseContext;
import ru.serce.jnrfuse.struct.FuseOperations;

/**
 * Builds the libfuse2 {@code struct fuse_operations} for one mount and converts each callback's native arguments for
 * {@link FuseFilesystem}.
 *
 * <p>Registration: only the operations wired here get a function pointer; every other slot stays NULL, so libfuse
 * answers ENOSYS without calling into Java and the kernel remembers the refusal (for getxattr/listxattr it then never
 * asks again). This replaces jnr-fuse's {@code AbstractFuseFS}/{@code @NotImplemented} mechanism, which does the same
 * by reflection ({@code getClass().getMethods()} filtered on the annotation, by method name: an override without the
 * annotation is registered, the annotation is not inherited) but also always wraps every pointer in a new Struct per
 * call, waits a fixed 2 s on mount and registers a shutdown hook per mount.
 *
 * <p>Two flags in the struct's bitfield word (after {@code bmap}, mapped by jnr-fuse only as padding) are set:
 * {@code flag_nullpath_ok} (bit 0: read/write/flush/release... on an unlinked open file get a NULL path instead of
 * failing with ENOENT under {@code hard_remove}) and {@code flag_utime_omit_ok} (bit 2: libfuse passes UTIME_NOW and
 * UTIME_OMIT through; without it libfuse calls utimens only when both times change, so {@code touch -m} is silently
 * dropped).
 *
 * <p>Every callback catches everything: an exception escaping a jnr closure must not reach native code.
 */
final class JnrCallbacks {
  private static final Logger LOG = LoggerFactory.getLogger(JnrCallbacks.class);
  private static final int EIO = 5;
  private static final int FLAG_NULLPATH_OK = 1;
  private static final int FLAG_UTIME_OMIT_OK = 1 << 2;

  private final LibFuse lib;
  private final FuseFilesystem fs;
  private final FuseOperations ops;
  private final Pointer opsMemory;
  private final ScratchPool scratch;
  private final int blksize;
  private final FromNativeConverter<FuseFillDir, Pointer> fillerConverter;

  JnrCallbacks(LibFuse lib, FuseFilesystem fs, int maxRequest) {
    this.lib = lib;
    this.fs = fs;
    this.blksize = Math.min(fs.preferredIoSize(), FuseOptions.LIBFUSE2_MAX_REQUEST);
    this.scratch = new ScratchPool(NativeLayout.RUNTIME, maxRequest, 4);
    this.ops = new FuseOperations(NativeLayout.RUNTIME);
    // Native memory for the struct, held here until the libfuse loop has ended.
    this.opsMemory = Memory.allocateDirect(NativeLayout.RUNTIME, Struct.size(ops));
    opsMemory.setMemory(0, Struct.size(ops), (byte) 0);
    ops.useMemory(opsMemory);
    wire();
    // Only now: jnr-fuse's ClosureHelper finds jnr's class loader for closures by reflection, and that loader exists
    // only after the first closure was created (by wire()); asked earlier, the singleton caches a null loader.
    this.fillerConverter = ClosureHelper.getInstance().getNativeConveter(FuseFillDir.class);
    long flagsOffset = ops.bmap.offset() + NativeLayout.RUNTIME.addressSize();
    opsMemory.putInt(flagsOffset, FLAG_NULLPATH_OK | FLAG_UTIME_OMIT_OK);
  }

  /**
   * libfuse's getattr with the path's bytes: jnr-fuse's {@code GetAttrCallback} takes a String that jnr-ffi decodes
   * replacing invalid UTF-8 with U+FFFD, so {@code col\xff.txt} and {@code col\xfe.txt} reached the engine as one
   * name. Every operation on a name starts with the kernel's LOOKUP, which libfuse answers with getattr: refusing the
   * name here (EINVAL) keeps it from every other operation.
   */
  public interface RawGetattr {
    @Delegate
    int getattr(Pointer path, Pointer stbuf);
  }

  /** Held for as long as the operations table: the closure must outlive every call libfuse makes through it. */
  private final RawGetattr getattr = this::getattr;

  private int getattr(Pointer path, Pointer stbuf) {
    try {
      if (path == null) {
        return fs.getattr((String) null, attr -> NativeLayout.putStat(stbuf, attr, blksize));
      }
      return fs.getattr(cString(path), attr -> NativeLayout.putStat(stbuf, attr, blksize));
    } catch (Throwable t) {
      return glue("getattr", null, t);
    }
  }

  /** libfuse's symlink with the target's bytes (see {@link RawGetattr}); the link's name passed getattr already. */
  public interface RawSymlink {
    @Delegate
    int symlink(Pointer target, Pointer link);
  }

  private final RawSymlink symlink = this::symlink;

  private int symlink(Pointer target, Pointer link) {
    try {
      String linkPath = link.getString(0, link.indexOf(0, (byte) 0), StandardCharsets.UTF_8);
      return withCaller(linkPath, c -> fs.symlink(cString(target), linkPath, c));
    } catch (Throwable t) {
      return glue("symlink", null, t);
    }
  }

  /** The bytes of a C string, without its NUL. */
  private static byte[] cString(Pointer p) {
    byte[] bytes = new byte[p.indexOf(0, (byte) 0)];
    p.get(0, bytes, 0, bytes.length);
    return bytes;
  }

  FuseOperations operations() {
    return ops;
  }

  private void wire() {
    ops.init.set(conn -> {
      try {
        fs.init(new FuseConnection(conn.getInt(0), conn.getInt(4), conn.getInt(12), conn.getInt(16)));
      } catch (Throwable t) {
        LOG.error("FUSE init callback failed", t);
      }
      return null;
    });
    // getattr takes the path as a pointer (jnr-fuse's String would be decoded with U+FFFD replacing invalid UTF-8)
    opsMemory.putPointer(ops.getattr.offset(),
        NativeLayout.RUNTIME.getClosureManager().getClosurePointer(RawGetattr.class, getattr));
    ops.fgetattr.set((path, stbuf, fi) -> {
      try {
        return fs.fgetattr(path, fi.getLong(NativeLayout.FI_FH), attr -> NativeLayout.putStat(stbuf, attr, blksize));
      } catch (Throwable t) {
        return glue("fgetattr", path, t);
      }
    });
    ops.access.set(fs::access);
    ops.readlink.set(this::readlink);
    ops.opendir.set((path, fi) -> {
      fi.putLong(NativeLayout.FI_FH, fs.opendir(path));
      return 0;
    });
    ops.readdir.set(this::readdir);
    ops.releasedir.set((path, fi) -> fs.releasedir(path, fi.getLong(NativeLayout.FI_FH)));
    ops.mkdir.set((path, mode) -> withCaller(path, c -> fs.mkdir(path, (int) mode, c)));
    ops.rmdir.set(fs::rmdir);
    ops.unlink.set(fs::unlink);
    ops.rename.set(fs::rename);
    // the target as a pointer too: jnr-fuse's String would carry U+FFFD in place of invalid bytes
    opsMemory.putPointer(ops.symlink.offset(),
        NativeLayout.RUNTIME.getClosureManager().getClosurePointer(RawSymlink.class, symlink));
    // mode_t and dev_t arrive as unsigned values in a long
    ops.mknod.set((path, mode, rdev) -> withCaller(path, c -> fs.mknod(path, (int) mode, rdev, c)));
    ops.chmod.set((path, mode) -> withCaller(path, c -> fs.chmod(path, (int) mode, c)));
    // uid_t/gid_t arrive as unsigned 32-bit values in a long: (int) turns (uid_t) -1 into -1.
    ops.chown.set((path, uid, gid) -> withCaller(path, c -> fs.chown(path, (int) uid, (int) gid, c)));
    ops.truncate.set((path, size) -> withCaller(path, c -> fs.truncate(path, size, c)));
    ops.ftruncate.set((path, size, fi) ->
        withCaller(path, c -> fs.ftruncate(path, fi.getLong(NativeLayout.FI_FH), size, c)));
    ops.utimens.set((path, ts) -> withCaller(path, c -> {
      long[] t = NativeLayout.timespecs(ts);
      return fs.utimens(path, t[0], t[1], t[2], t[3], c);
    }));
    ops.create.set((path, mode, fi) ->
        withCaller(path, c -> opened(fs.create(path, (int) mode, fi.getInt(NativeLayout.FI_FLAGS), c), fi)));
    ops.open.set((path, fi) ->
        withCaller(path, c -> opened(fs.open(path, fi.getInt(NativeLayout.FI_FLAGS), c), fi)));
    ops.read.set(this::read);
    ops.write.set(this::write);
    ops.flush.set((path, fi) -> fs.flush(path, fi.getLong(NativeLayout.FI_FH)));
    ops.fsync.set((path, datasync, fi) -> fs.fsync(path, fi.getLong(NativeLayout.FI_FH), datasync != 0));
    ops.release.set((path, fi) -> fs.release(path, fi.getLong(NativeLayout.FI_FH)));
    ops.statfs.set((path, stbuf) -> {
      try {
        return fs.statfs(path, stats -> NativeLayout.putStatvfs(stbuf, stats));
      } catch (Throwable t) {
        return glue("statfs", path, t);
      }
    });
  }

  /**
   * READ and WRITE hand the VFS a direct ByteBuffer over libfuse's own request buffer (valid only during the call, the
   * same contract as the jfuse binding's): no copy through a scratch buffer, which was one more memcpy of every byte
   * read or written (issue 14).
   */
  private static ByteBuffer view(Pointer buf, long size) {
    return NativeMemory.buffer(buf.address(), size);
  }

  private int read(String path, Pointer buf, long size, long offset, Pointer fi) {
    try {
      long fh = fi.getLong(NativeLayout.FI_FH);
      return fs.read(path, fh, offset, view(buf, size));
    } catch (Throwable t) {
      return glue("read", path, t);
    }
  }

  private int write(String path, Pointer buf, long size, long offset, Pointer fi) {
    try {
      long fh = fi.getLong(NativeLayout.FI_FH);
      return fs.write(path, fh, offset, view(buf, size));
    } catch (Throwable t) {
      return glue("write", path, t);
    }
  }

  private int readlink(String path, Pointer buf, long size) {
    ScratchPool.Scratch s = scratch.acquire();
    try {
      ByteBuffer bb = s.buffer.clear().limit((int) Math.min(size, s.capacity));
      int r = fs.readlink(path, bb);
      if (r == 0) {
        buf.transferFrom(0, s.pointer, 0, bb.position());
      }
      return r;
    } catch (Throwable t) {
      return glue("readlink", path, t);
    } finally {
      scratch.release(s);
    }
  }

  /**
   * Offset mode, as on the jfuse binding: libfuse 2 passes each entry's offset back to the next READDIR instead of
   * buffering the whole listing (its offset-0 mode would hold every name of a million-entry directory in this
   * process's native memory), and the engine is read page by page through the handle's cursor.
   */
  private int readdir(String path, Pointer buf, Pointer filter, long offset, Pointer fi) {
    try {
      FuseFillDir fill = fillerConverter.fromNative(filter, ClosureHelper.getInstance().getFromNativeContext());
      Pointer stat = Memory.allocateDirect(NativeLayout.RUNTIME, NativeLayout.STAT_SIZE);
      return fs.readdir(path, fi.getLong(NativeLayout.FI_FH), offset, (name, attr, next) -> {
        Pointer st = null;
        if (attr != null) {
          NativeLayout.putDirentStat(stat, attr);
          st = stat;
        }
        // NUL-terminated by hand: jnr passes a heap buffer's bytes as they are.
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        byte[] cstr = new byte[utf8.length + 1];
        System.arraycopy(utf8, 0, cstr, 0, utf8.length);
        return fill.apply(buf, ByteBuffer.wrap(cstr), st, next) != 0;
      });
    } catch (Throwable t) {
      return glue("readdir", path, t);
    }
  }

  private static int opened(long fhOrErrno, Pointer fi) {
    if (fhOrErrno < 0) {
      return (int) fhOrErrno;
    }
    fi.putLong(NativeLayout.FI_FH, fhOrErrno);
    return 0;
  }

  @FunctionalInterface
  private interface CallerOp {
    int apply(Caller caller);
  }

  private int withCaller(String path, CallerOp op) {
    try {
      return op.apply(caller());
    } catch (Throwable t) {
      return glue("callback", path, t);
    }
  }

  /**
   * The requesting process's credentials. Supplementary groups stay empty: libfuse2's {@code fuse_getgroups} reads
   * /proc per call, and with {@code default_permissions} the kernel has already checked group access.
   */
  private Caller caller() {
    FuseContext ctx = lib.fuse_get_context();
    return new Caller((int) ctx.uid.get(), (int) ctx.gid.get(), null);
  }

  private static int glue(String op, String path, Throwable t) {
    LOG.warn("FUSE {} {}: binding failure; answered EIO", op, path, t);
    return -EIO;
  }
}
