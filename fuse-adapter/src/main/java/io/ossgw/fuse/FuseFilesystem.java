package io.ossgw.fuse;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The FUSE operations of the libfuse high-level API, implemented on a {@link VirtualFileSystem} without any binding
 * types: a binding (jnr-fuse today, perhaps jfuse later) converts native arguments, calls these methods and copies
 * results back. Every method returns 0 (or a byte count, or an fh) on success and {@code -errno} on failure, as
 * libfuse expects; none throws.
 *
 * <p>Errors: an {@link FsException} becomes {@code -errno()}. Anything else (a bug, a RuntimeException from below)
 * becomes {@code -EIO}, is counted in {@link FuseStats#unexpectedErrors()} and logged once per operation and path:
 * never ENOENT, because the kernel would cache a negative entry for a file that exists.
 *
 * <p>Paths are absolute within the mount, as libfuse passes them. For operations on open files (read, write, flush,
 * fsync, release, ftruncate, fgetattr) the path may be null: the bindings tell libfuse they accept that
 * ({@code flag_nullpath_ok}), which keeps I/O on unlinked-but-open files working with {@code hard_remove}; the fh
 * identifies the file. Without {@code hard_remove} (the default) libfuse passes such files' hidden names instead
 * ({@link HiddenNames}).
 *
 * <p>Thread-safe: libfuse's multithreaded loop calls these concurrently. Metadata operations go through one
 * counting/mapping helper; READ and WRITE spell it out so that the data path allocates nothing (not even a lambda).
 */
public final class FuseFilesystem {
  /** {@code utimensat(2)}'s "set to the current time" marker in {@code tv_nsec}. */
  public static final long UTIME_NOW = (1L << 30) - 1;

  /** {@code utimensat(2)}'s "leave unchanged" marker in {@code tv_nsec}. */
  public static final long UTIME_OMIT = (1L << 30) - 2;

  /** Longest name component in bytes of UTF-8 (Linux NAME_MAX); longer gives ENAMETOOLONG. */
  public static final int NAME_MAX = FuseNames.NAME_MAX;

  private static final int O_EXCL = 0200;

  /** Receives the attributes of a successful getattr/fgetattr. */
  @FunctionalInterface
  public interface StatSink {
    /** @param attr the attributes to write into {@code struct stat} */
    void put(FileAttr attr);
  }

  /** Receives directory entries; the libfuse filler behind it, in offset mode. */
  @FunctionalInterface
  public interface DirFiller {
    /**
     * @param name one path component
     * @param attr its attributes (type and inode number are used on libfuse2), or null when unknown
     * @param nextOffset the offset the kernel passes back to continue after this entry
     * @return true when the reply buffer is full and listing must stop (the entry was not added)
     */
    boolean add(String name, FileAttr attr, long nextOffset);
  }

  /** Receives the result of statfs. */
  @FunctionalInterface
  public interface StatfsSink {
    /** @param stats the figures to write into {@code struct statvfs} */
    void put(FsStats stats);
  }

  private final VirtualFileSystem vfs;
  private final FuseStats stats = new FuseStats();
  private final OpenFileTable files = new OpenFileTable();
  private final HiddenNames hidden = new HiddenNames();
  private final UnexpectedErrorLog errorLog = new UnexpectedErrorLog();
  private final OpenDirs dirs = new OpenDirs();
  private final int ioSize;
  private final CountDownLatch initialized = new CountDownLatch(1);
  private final Runnable onInit;
  private volatile RequestMark requests = RequestMark.NONE;
  private volatile long mountingSince;

  /**
   * @param vfs the filesystem to present
   * @param options the mount's options ({@code maxWrite} is the basis of {@link #preferredIoSize()})
   */
  public FuseFilesystem(VirtualFileSystem vfs, FuseOptions options) {
    this(vfs, options, () -> {});
  }

  /**
   * @param vfs the filesystem to present
   * @param options the mount's options
   * @param onInit run once on the FUSE thread that answered the kernel's INIT; must not block
   */
  public FuseFilesystem(VirtualFileSystem vfs, FuseOptions options, Runnable onInit) {
    this.vfs = Objects.requireNonNull(vfs, "vfs");
    this.ioSize = options.maxWrite();
    this.onInit = Objects.requireNonNull(onInit, "onInit");
  }

  /** This mount's counters. */
  public FuseStats stats() {
    return stats;
  }

  /**
   * The requested largest write in bytes; bindings report it (capped at what their libfuse negotiates) as {@code
   * st_blksize}, the I/O size tools such as cp and cat size their buffers to.
   */
  public int preferredIoSize() {
    return ioSize;
  }

  /** Number of unlinked open files libfuse keeps under a hidden name (in memory only) until their last release. */
  public int hiddenFiles() {
    return hidden.size();
  }

  /** Number of files currently open through this mount. */
  public int openFiles() {
    return files.size();
  }

  /**
   * How this mount tells libfuse's calls within one kernel request apart ({@link HiddenNames}): the binding sets it
   * before it serves; until then ({@link RequestMark#NONE}) every rename is an ordinary rename.
   */
  public void requestMark(RequestMark mark) {
    requests = Objects.requireNonNull(mark, "mark");
  }

  /**
   * The binding is about to ask libfuse to mount (its preparation, JVM work only, is done): {@link
   * FuseOptions#mountTimeout()} counts from here. Called by the binding; the first call counts.
   */
  public void mounting() {
    if (mountingSince == 0) {
      mountingSince = Math.max(1, System.nanoTime());
    }
  }

  /** {@link System#nanoTime()} of the first {@link #mounting()}, or 0 before it. */
  public long mountingSince() {
    return mountingSince;
  }

  /** The kernel's INIT request was answered: the session is serving. Called by the binding from its init callback. */
  public void init(FuseConnection connection) {
    stats.call(FuseOp.INIT);
    stats.connection(connection);
    initialized.countDown();
    try {
      onInit.run();
    } catch (Throwable t) {
      errorLog.unexpected(FuseOp.INIT, "/", t);
    }
  }

  /** Waits up to {@code millis} for {@link #init}; true once it happened. */
  public boolean awaitInit(long millis) throws InterruptedException {
    return initialized.await(millis, TimeUnit.MILLISECONDS);
  }

  /** True once the kernel's INIT has been answered (the mount was live at least once). */
  public boolean initialized() {
    return initialized.getCount() == 0;
  }

  /** getattr: stat(2) of a path. */
  public int getattr(String path, StatSink out) {
    return call(FuseOp.GETATTR, path, () -> {
      if (FuseNames.tooLong(path)) {
        return fail(FuseOp.GETATTR, Errno.ENAMETOOLONG);
      }
      FileHandle h = hidden.handle(path);
      // libfuse asks for an unlinked open file's attributes (fstat) by its hidden name: answer from the open file
      if (h != null) {
        out.put(vfs.fgetattr(h));
      } else if (HiddenNames.hiddenForm(path)) {
        out.put(probe(path));
      } else {
        out.put(vfs.getattr(path));
      }
      return 0;
    });
  }

  /**
   * getattr of a path given as the kernel's bytes (without the NUL): a path that is not valid UTF-8 is EINVAL, never
   * another name's attributes. The kernel starts every operation on a name with a LOOKUP, which libfuse answers with
   * getattr, so a name refused here never reaches create, mkdir, rename or any other operation: two such names can
   * never be merged into one object (issue 9 item 2). NFS answers NFS3ERR_INVAL alike.
   */
  public int getattr(byte[] path, StatSink out) {
    String p = FuseNames.utf8OrNull(path);
    if (p == null) {
      stats.call(FuseOp.GETATTR);
      return fail(FuseOp.GETATTR, Errno.EINVAL);
    }
    return getattr(p, out);
  }

  /**
   * fgetattr: fstat(2) of an open file (libfuse 2's fgetattr, libfuse 3's getattr with a file info); {@code path} may
   * be null. Answered from the handle, so an unlinked open file still has attributes (with {@code st_nlink} 0) instead
   * of ENOENT; without a known handle the path is looked up.
   */
  public int fgetattr(String path, long fh, StatSink out) {
    return call(FuseOp.FGETATTR, path, () -> {
      FileHandle h = files.get(fh);
      if (h != null) {
        out.put(vfs.fgetattr(h));
        return 0;
      }
      if (path == null) {
        return fail(FuseOp.FGETATTR, Errno.EBADF);
      }
      out.put(vfs.getattr(path));
      return 0;
    });
  }

  /**
   * access(2). Always 0: with {@code default_permissions} the kernel checks modes itself and does not send ACCESS;
   * without it the gateway does not enforce permissions.
   */
  public int access(String path, int mask) {
    stats.call(FuseOp.ACCESS);
    return 0;
  }

  /**
   * readlink(2): writes the target's UTF-8 bytes and a terminating NUL into {@code out}, truncating the target to
   * {@code out.remaining() - 1} bytes as libfuse's contract says.
   */
  public int readlink(String path, ByteBuffer out) {
    return call(FuseOp.READLINK, path, () -> {
      if (out.remaining() == 0) {
        return fail(FuseOp.READLINK, Errno.EINVAL);
      }
      byte[] target = vfs.readlink(path).getBytes(StandardCharsets.UTF_8);
      out.put(target, 0, Math.min(target.length, out.remaining() - 1)).put((byte) 0);
      return 0;
    });
  }

  /**
   * opendir: a new directory handle for {@code fuse_file_info.fh}, naming where its listing stands ({@link OpenDirs});
   * the kernel has looked the directory up already.
   */
  public long opendir(String path) {
    stats.call(FuseOp.OPENDIR);
    return dirs.open();
  }

  /**
   * readdir in offset mode: from {@code offset} (0 at the start, else what the kernel got with the last entry it
   * kept), as many entries as the kernel's buffer takes, read page by page from the engine ({@link
   * VirtualFileSystem#readdir(String, String, int)}); "." and ".." come first. Entries whose name cannot be looked up
   * (a '/', NUL or more than {@link FuseNames#NAME_MAX} bytes) are skipped and logged once; they keep their offsets, so
   * positions stay the engine's.
   *
   * @param dirHandle the handle {@link #opendir} returned
   */
  public int readdir(String path, long dirHandle, long offset, DirFiller filler) {
    return call(FuseOp.READDIR, path, () -> {
      long off = offset;
      if (off <= 0) {
        if (filler.add(".", null, 1)) {
          return 0;
        }
        off = 1;
      }
      if (off == 1) {
        if (filler.add("..", null, 2)) {
          return 0;
        }
        off = 2;
      }
      OpenDirs.Cursor cursor = dirs.get(dirHandle);
      long index = off - OpenDirs.FIRST + 1; // the next entry's index
      String after = index == 0 ? null : cursor.positionOf(index - 1);
      long skip = 0;
      if (index > 0 && after == null) {
        skip = index; // an offset this cursor no longer knows: count from the start
      }
      cursor.startAt(index);
      int taken = 0;
      try {
        while (true) {
          DirPage page = vfs.readdir(path, after, (int) Math.min(cursor.ask() + skip, 1000));
          for (DirEntry e : page.entries()) {
            if (skip > 0) {
              skip--;
              continue;
            }
            String name = e.name();
            if (!FuseNames.presentable(name)) {
              errorLog.skippedName(path, name);
            } else if (filler.add(name, e.attr(), OpenDirs.FIRST + index)) {
              return 0;
            }
            cursor.handedOut(e.position());
            index++;
            taken++;
          }
          if (page.eof()) {
            return 0;
          }
          after = page.resumeAfter(after);
        }
      } finally {
        cursor.took(taken);
      }
    });
  }

  /** releasedir: forgets the handle's position. */
  public int releasedir(String path, long dirHandle) {
    stats.call(FuseOp.RELEASEDIR);
    dirs.release(dirHandle);
    return 0;
  }

  /** Number of directories open through this mount. */
  public int openDirectories() {
    return dirs.size();
  }

  /** mkdir(2); {@code mode} may carry type bits, only 07777 is used. */
  public int mkdir(String path, int mode, Caller caller) {
    return call(FuseOp.MKDIR, path, () -> {
      if (FuseNames.tooLong(path)) {
        return fail(FuseOp.MKDIR, Errno.ENAMETOOLONG);
      }
      vfs.mkdir(path, mode & 07777, caller);
      return 0;
    });
  }

  /** rmdir(2). */
  public int rmdir(String path) {
    return call(FuseOp.RMDIR, path, () -> {
      vfs.rmdir(path);
      return 0;
    });
  }

  /** unlink(2); libfuse's unlink of a hidden name of ours (after the last release) only forgets it. */
  public int unlink(String path) {
    return call(FuseOp.UNLINK, path, () -> {
      if (hidden.remove(path)) {
        return 0;
      }
      vfs.unlink(path);
      return 0;
    });
  }

  /**
   * rename(2) (libfuse2 has no renameat2 flags; the kernel refuses them with EINVAL before asking). libfuse's rename
   * of an open file onto a hidden name (libfuse hides an open file that is unlinked or renamed over, when {@code
   * hard_remove} is off) is the unlink of it: see {@link HiddenNames}. Any other rename, a user's onto a name of the
   * same form included, moves the file.
   */
  public int rename(String from, String to) {
    return call(FuseOp.RENAME, from, () -> {
      if (FuseNames.tooLong(to)) {
        return fail(FuseOp.RENAME, Errno.ENAMETOOLONG);
      }
      if (HiddenNames.isHideRename(from, to) && requests.take(to)) {
        List<FileHandle> open = files.openUnder(from);
        open.removeIf(hidden::hides);
        if (!open.isEmpty()) {
          vfs.unlink(from);
          hidden.add(to, open);
          return 0;
        }
      }
      vfs.rename(from, to);
      hidden.renamed(from, to); // a directory holding hidden names
      return 0;
    });
  }

  /** symlink(2): creates {@code linkPath} pointing at {@code target} (stored verbatim, not resolved). */
  public int symlink(String target, String linkPath, Caller caller) {
    return call(FuseOp.SYMLINK, linkPath, () -> {
      if (FuseNames.tooLong(linkPath)) {
        return fail(FuseOp.SYMLINK, Errno.ENAMETOOLONG);
      }
      vfs.symlink(target, linkPath, caller);
      return 0;
    });
  }

  /**
   * symlink(2) with the target as the kernel's bytes: a target that is not valid UTF-8 is EINVAL (it is stored as UTF-8
   * and would come back with U+FFFD in place of its bytes; NFS answers SYMLINK alike with NFS3ERR_INVAL).
   */
  public int symlink(byte[] target, String linkPath, Caller caller) {
    String t = FuseNames.utf8OrNull(target);
    if (t == null) {
      stats.call(FuseOp.SYMLINK);
      return fail(FuseOp.SYMLINK, Errno.EINVAL);
    }
    return symlink(t, linkPath, caller);
  }

  /**
   * mknod(2) (mkfifo, device nodes, and the name bind(2) gives an AF_UNIX socket): {@code mode} carries the type
   * bits; {@code rdev} is the kernel's device number (Linux {@code makedev} encoding). A regular type (S_IFREG or
   * none) is never asked for: the bindings register create, which libfuse uses for it.
   */
  public int mknod(String path, int mode, long rdev, Caller caller) {
    return call(FuseOp.MKNOD, path, () -> {
      if (FuseNames.tooLong(path)) {
        return fail(FuseOp.MKNOD, Errno.ENAMETOOLONG);
      }
      FileType type = FileType.fromMode(mode);
      if (type == null || !type.special()) {
        return fail(FuseOp.MKNOD, Errno.EINVAL);
      }
      vfs.mknod(path, type, mode & 07777, rdev, caller);
      return 0;
    });
  }

  /** chmod(2): permission bits 07777 of {@code mode}. */
  public int chmod(String path, int mode, Caller caller) {
    stats.call(FuseOp.CHMOD);
    return setattr(FuseOp.CHMOD, path, SetAttr.mode(mode & 07777), null, caller);
  }

  /** chown(2): {@code -1} (as libfuse passes {@code (uid_t) -1}) leaves owner or group unchanged. */
  public int chown(String path, int uid, int gid, Caller caller) {
    stats.call(FuseOp.CHOWN);
    Integer u = uid == -1 ? null : uid;
    Integer g = gid == -1 ? null : gid;
    if (u == null && g == null) {
      return 0;
    }
    return setattr(FuseOp.CHOWN, path, SetAttr.owner(u, g), null, caller);
  }

  /** truncate(2). */
  public int truncate(String path, long size, Caller caller) {
    stats.call(FuseOp.TRUNCATE);
    if (size < 0) {
      return fail(FuseOp.TRUNCATE, Errno.EINVAL);
    }
    return setattr(FuseOp.TRUNCATE, path, SetAttr.size(size), null, caller);
  }

  /** ftruncate(2) of an open file; {@code path} may be null. */
  public int ftruncate(String path, long fh, long size, Caller caller) {
    stats.call(FuseOp.FTRUNCATE);
    FileHandle h = files.get(fh);
    String p = path != null && hidden.handle(path) == null ? path : h != null ? h.path() : null;
    if (h == null || p == null) {
      return fail(FuseOp.FTRUNCATE, Errno.EBADF);
    }
    if (size < 0) {
      return fail(FuseOp.FTRUNCATE, Errno.EINVAL);
    }
    return setattr(FuseOp.FTRUNCATE, p, SetAttr.size(size), h, caller);
  }

  /**
   * utimensat(2): each time is seconds plus nanoseconds, where a nanosecond value of {@link #UTIME_NOW} means "now"
   * and {@link #UTIME_OMIT} "unchanged" (libfuse passes them through because the bindings set {@code
   * flag_utime_omit_ok}, which also makes {@code touch -a}/{@code -m} reach the filesystem).
   */
  public int utimens(String path, long atimeSec, long atimeNsec, long mtimeSec, long mtimeNsec, Caller caller) {
    stats.call(FuseOp.UTIMENS);
    Instant now = Instant.now();
    Instant atime = toInstant(atimeSec, atimeNsec, now);
    Instant mtime = toInstant(mtimeSec, mtimeNsec, now);
    if (atime == null && mtime == null) {
      return 0;
    }
    return setattr(FuseOp.UTIMENS, path, SetAttr.times(atime, mtime), null, caller);
  }

  /**
   * create: open(2) with O_CREAT ({@code O_EXCL} honoured).
   *
   * @return the new fh (> 0), or {@code -errno}
   */
  public long create(String path, int mode, int flags, Caller caller) {
    return callForFh(FuseOp.CREATE, path, () -> {
      if (FuseNames.tooLong(path)) {
        return fail(FuseOp.CREATE, Errno.ENAMETOOLONG);
      }
      return files.add(vfs.create(path, mode & 07777, OpenFlags.fromPosix(flags), (flags & O_EXCL) != 0, caller));
    });
  }

  /**
   * open(2) of an existing file.
   *
   * @return the new fh (> 0), or {@code -errno}
   */
  public long open(String path, int flags, Caller caller) {
    return callForFh(FuseOp.OPEN, path, () -> files.add(vfs.open(path, OpenFlags.fromPosix(flags), caller)));
  }

  /**
   * read: up to {@code dst.remaining()} bytes at {@code offset} into {@code dst} (a buffer the binding reuses).
   *
   * @return bytes read (fewer only at end of file), or {@code -errno}
   */
  public int read(String path, long fh, long offset, ByteBuffer dst) {
    stats.call(FuseOp.READ);
    try {
      FileHandle h = files.get(fh);
      if (h == null) {
        return fail(FuseOp.READ, Errno.EBADF);
      }
      int n = vfs.read(h, offset, dst);
      stats.read(n);
      return n;
    } catch (FsException e) {
      return fail(FuseOp.READ, e);
    } catch (Throwable t) {
      return unexpected(FuseOp.READ, path, t);
    }
  }

  /**
   * write: all of {@code src} at {@code offset} (the VFS copies it; the binding reuses the buffer afterwards).
   *
   * @return bytes written, or {@code -errno}
   */
  public int write(String path, long fh, long offset, ByteBuffer src) {
    stats.call(FuseOp.WRITE);
    try {
      FileHandle h = files.get(fh);
      if (h == null) {
        return fail(FuseOp.WRITE, Errno.EBADF);
      }
      int n = vfs.write(h, offset, src);
      stats.written(n);
      return n;
    } catch (FsException e) {
      return fail(FuseOp.WRITE, e);
    } catch (Throwable t) {
      return unexpected(FuseOp.WRITE, path, t);
    }
  }

  /** flush: every close(2) of a descriptor; the data is in the backend when it returns 0. */
  public int flush(String path, long fh) {
    return call(FuseOp.FLUSH, path, () -> {
      FileHandle h = files.get(fh);
      if (h == null) {
        return fail(FuseOp.FLUSH, Errno.EBADF);
      }
      vfs.flush(h);
      return 0;
    });
  }

  /** fsync(2)/fdatasync(2). */
  public int fsync(String path, long fh, boolean dataOnly) {
    return call(FuseOp.FSYNC, path, () -> {
      FileHandle h = files.get(fh);
      if (h == null) {
        return fail(FuseOp.FSYNC, Errno.EBADF);
      }
      vfs.fsync(h, dataOnly);
      return 0;
    });
  }

  /** release: the last close of an open file; frees the fh. The kernel ignores the result. */
  public int release(String path, long fh) {
    return call(FuseOp.RELEASE, path, () -> {
      FileHandle h = files.remove(fh);
      if (h == null) {
        return fail(FuseOp.RELEASE, Errno.EBADF);
      }
      vfs.release(h);
      return 0;
    });
  }

  /** statfs(2)/statvfs(3). */
  public int statfs(String path, StatfsSink out) {
    return call(FuseOp.STATFS, path, () -> {
      out.put(vfs.statfs());
      return 0;
    });
  }

  /**
   * Releases every file still open, when the session has ended without the kernel's RELEASEs (the connection was
   * aborted). Errors are logged; staged data gets its last chance to be uploaded.
   */
  public void releaseAll() {
    hidden.clear();
    for (FileHandle h : files.drain()) {
      try {
        vfs.release(h);
      } catch (Throwable t) {
        errorLog.unexpected(FuseOp.RELEASE, h.path(), t);
      }
    }
  }

  /**
   * getattr of a name of libfuse's hidden form that is not ours: if it is free, this may be libfuse's probe before
   * it hides an open file, so the request is marked for the rename that would follow ({@link HiddenNames}).
   */
  private FileAttr probe(String path) {
    try {
      return vfs.getattr(path);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT) {
        requests.set(path);
      }
      throw e;
    }
  }

  private int setattr(FuseOp op, String path, SetAttr changes, FileHandle handle, Caller caller) {
    try {
      vfs.setattr(path, changes, handle, caller);
      return 0;
    } catch (FsException e) {
      return fail(op, e);
    } catch (Throwable t) {
      return unexpected(op, path, t);
    }
  }

  /** One metadata operation: counts it and turns exceptions into errnos. */
  @FunctionalInterface
  private interface Op {
    int run();
  }

  /** An operation that yields an fh or {@code -errno}. */
  @FunctionalInterface
  private interface FhOp {
    long run();
  }

  private int call(FuseOp op, String path, Op body) {
    stats.call(op);
    try {
      return body.run();
    } catch (FsException e) {
      return fail(op, e);
    } catch (Throwable t) {
      return unexpected(op, path, t);
    }
  }

  private long callForFh(FuseOp op, String path, FhOp body) {
    stats.call(op);
    try {
      return body.run();
    } catch (FsException e) {
      return fail(op, e);
    } catch (Throwable t) {
      return unexpected(op, path, t);
    }
  }

  private int fail(FuseOp op, FsException e) {
    stats.error(op);
    Errno errno = e.errno();
    return errno == null ? -Errno.EIO.value() : -errno.value();
  }

  private int fail(FuseOp op, Errno errno) {
    stats.error(op);
    return -errno.value();
  }

  private int unexpected(FuseOp op, String path, Throwable t) {
    stats.error(op);
    stats.unexpected();
    errorLog.unexpected(op, path, t);
    return -Errno.EIO.value();
  }

  private static Instant toInstant(long sec, long nsec, Instant now) {
    if (nsec == UTIME_OMIT) {
      return null;
    }
    if (nsec == UTIME_NOW) {
      return now;
    }
    return Instant.ofEpochSecond(sec, nsec);
  }
}
