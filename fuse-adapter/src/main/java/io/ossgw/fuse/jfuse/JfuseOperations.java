package io.ossgw.fuse.jfuse;

import io.ossgw.core.vfs.Caller;
import io.ossgw.fuse.FuseConnection;
import io.ossgw.fuse.FuseFilesystem;
import io.ossgw.fuse.FuseOptions;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;
import org.cryptomator.jfuse.api.DirFiller;
import org.cryptomator.jfuse.api.Errno;
import org.cryptomator.jfuse.api.FileInfo;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.FuseConnInfo;
import org.cryptomator.jfuse.api.FuseOperations;
import org.cryptomator.jfuse.api.Statvfs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * jfuse's {@link FuseOperations} (libfuse 3's high-level API) for one mount, each converting its arguments for
 * {@link FuseFilesystem} exactly as the jnr binding's callbacks do: same operations registered (the rest stay NULL,
 * so libfuse answers ENOSYS and the kernel stops asking, e.g. for xattrs), same errno values (FuseFilesystem returns
 * Linux {@code -errno}), same caller credentials.
 *
 * <p>The operations that can get a NULL path (getattr, truncate, chmod, chown, utimens, read, write, flush, fsync,
 * release) are not here but in {@link JfuseFileOps}: jfuse itself cannot pass a NULL path. libfuse 3 differences
 * handled here: rename carries renameat2 flags, which the gateway does not support (EINVAL,
 * what the kernel answers for libfuse2 mounts too); max_write, max_readahead, use_ino, hard_remove and direct_io are
 * set in init, where libfuse 3 wants them (its -o options for them are gone).
 *
 * <p>Every callback catches everything: an exception escaping an FFM upcall ends the JVM.
 */
final class JfuseOperations implements FuseOperations {
  private static final Logger LOG = LoggerFactory.getLogger(JfuseOperations.class);
  private static final int EIO = 5;
  private static final int EINVAL = 22;
  /** {@code enum fuse_readdir_flags}: the kernel asked for READDIRPLUS. */
  private static final int FUSE_READDIR_PLUS = 1;
  /** {@code enum fuse_fill_dir_flags}: this entry's {@code struct stat} is complete (libfuse >= 3.0). */
  private static final int FUSE_FILL_DIR_PLUS = 2;

  private final FuseFilesystem fs;
  private final FuseOptions options;
  private final Errno errno;
  private final JfuseNative nat;
  private final JfuseTuning tuning;
  private final boolean plusEntries;
  private final int blksize;
  private final ListedNames listed;

  JfuseOperations(FuseFilesystem fs, FuseOptions options, Errno errno, JfuseNative nat, JfuseTuning tuning,
      ListedNames listed) {
    this.fs = fs;
    this.options = options;
    this.errno = errno;
    this.nat = nat;
    this.tuning = tuning;
    this.plusEntries = tuning.readdirplus() != JfuseTuning.Readdirplus.OFF;
    this.blksize = Math.min(fs.preferredIoSize(), FuseOptions.MAX_REQUEST);
    this.listed = listed;
  }

  @Override
  public Errno errno() {
    return errno;
  }

  @Override
  public Set<Operation> supportedOperations() {
    // getattr, chmod, chown, truncate, utimens, read, write, flush, fsync and release are JfuseFileOps' upcalls.
    return EnumSet.of(Operation.INIT, Operation.ACCESS, Operation.READLINK, Operation.OPEN_DIR, Operation.READ_DIR,
        Operation.RELEASE_DIR, Operation.MKDIR, Operation.RMDIR, Operation.UNLINK, Operation.RENAME,
        Operation.SYMLINK, Operation.CREATE, Operation.OPEN, Operation.STATFS);
  }

  @Override
  public void init(FuseConnInfo conn, FuseConfig config) {
    try {
      conn.setMaxWrite(Math.min(options.maxWrite(), FuseOptions.MAX_REQUEST));
      // libfuse 3 ends the session at INIT unless this equals the max_read mount option (JfuseBinding#arguments).
      conn.setMaxRead(Math.min(options.maxRead(), FuseOptions.MAX_REQUEST));
      conn.setMaxReadahead(options.maxReadahead());
      conn.setWant(JfuseTuning.want(conn.want(), conn.capable(), tuning));
      if (tuning.maxBackground() > 0) {
        conn.setMaxBackground(tuning.maxBackground());
        conn.setCongestionThreshold(tuning.maxBackground() * 3 / 4);
      }
      JfuseStructs.configure(config, options.useIno(), options.hardRemove(), options.directIo());
      fs.init(new FuseConnection(conn.protoMajor(), conn.protoMinor(), conn.maxWrite(), conn.maxReadahead()));
    } catch (Throwable t) {
      LOG.error("FUSE init callback failed", t);
    }
  }


  @Override
  public int access(String path, int mask) {
    return fs.access(path, mask);
  }

  @Override
  public int readlink(String path, ByteBuffer buf, long len) {
    try {
      return fs.readlink(path, buf.clear().limit((int) Math.min(len, buf.capacity())));
    } catch (Throwable t) {
      return glue("readlink", path, t);
    }
  }

  @Override
  public int opendir(String path, FileInfo fi) {
    fi.setFh(fs.opendir(path));
    return 0;
  }

  /**
   * Offset mode always (each entry's offset is its index + 3, after "." and ".."), paged from the engine through the
   * handle's cursor ({@link FuseFilesystem#readdir(String, long, long, FuseFilesystem.DirFiller)}), so neither this
   * process nor libfuse holds a directory's listing. libfuse 3.14 also gives the kernel a node id and the attributes of
   * a READDIRPLUS entry only in this mode (its offset-0 buffer answers READDIRPLUS with ino 0, so the kernel would
   * LOOKUP every name). The files of a READDIRPLUS reply are told to {@link ListedNames}, which keeps the kernel (and
   * libfuse's node table) from holding more than a bounded number of them.
   */
  @Override
  public int readdir(String path, DirFiller filler, long offset, FileInfo fi, int flags) {
    try {
      boolean plus = plusEntries && (flags & FUSE_READDIR_PLUS) != 0;
      long dir = plus ? listed.directory(path, filler, fi.getFh()) : 0;
      return fs.readdir(path, fi.getFh(), offset, (name, attr, next) -> {
        int full;
        if (attr == null) {
          full = filler.fill(name, st -> { }, next, 0);
        } else if (plus) {
          full = filler.fill(name, st -> JfuseStructs.putStat(st, attr, blksize), next, FUSE_FILL_DIR_PLUS);
          if (full == 0 && dir != 0 && !attr.isDirectory()) {
            listed.listed(dir, name);
          }
        } else {
          full = filler.fill(name, st -> JfuseStructs.putDirent(st, attr), next, 0);
        }
        return full != 0;
      });
    } catch (Throwable t) {
      return glue("readdir", path, t);
    }
  }

  @Override
  public int releasedir(String path, FileInfo fi) {
    return fs.releasedir(path, fi.getFh());
  }

  @Override
  public int mkdir(String path, int mode) {
    return withCaller(path, c -> fs.mkdir(path, mode, c));
  }

  @Override
  public int rmdir(String path) {
    return fs.rmdir(path);
  }

  @Override
  public int unlink(String path) {
    return fs.unlink(path);
  }

  @Override
  public int rename(String from, String to, int flags) {
    return flags != 0 ? -EINVAL : fs.rename(from, to);
  }

  @Override
  public int symlink(String target, String linkname) {
    return withCaller(linkname, c -> fs.symlink(target, linkname, c));
  }





  @Override
  public int create(String path, int mode, FileInfo fi) {
    return withCaller(path, c -> opened(fs.create(path, mode, fi.getFlags(), c), fi));
  }

  @Override
  public int open(String path, FileInfo fi) {
    return withCaller(path, c -> opened(fs.open(path, fi.getFlags(), c), fi));
  }






  @Override
  public int statfs(String path, Statvfs statvfs) {
    try {
      return fs.statfs(path, stats -> JfuseStructs.putStatvfs(statvfs, stats));
    } catch (Throwable t) {
      return glue("statfs", path, t);
    }
  }



  private static int opened(long fhOrErrno, FileInfo fi) {
    if (fhOrErrno < 0) {
      return (int) fhOrErrno;
    }
    fi.setFh(fhOrErrno);
    return 0;
  }

  @FunctionalInterface
  private interface CallerOp {
    int apply(Caller caller);
  }

  private int withCaller(String path, CallerOp op) {
    try {
      return op.apply(nat.caller());
    } catch (Throwable t) {
      return glue("callback", path, t);
    }
  }

  private static int glue(String op, String path, Throwable t) {
    LOG.warn("FUSE {} {}: binding failure; answered EIO", op, path, t);
    return -EIO;
  }
}
