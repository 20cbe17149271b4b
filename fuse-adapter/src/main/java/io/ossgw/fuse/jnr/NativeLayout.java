package io.ossgw.fuse.jnr;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsStats;
import java.time.Instant;
import jnr.ffi.Memory;
import jnr.ffi.Platform;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;
import ru.serce.jnrfuse.struct.Timespec;

/**
 * Reads and writes the libfuse2 structs the callbacks get as raw pointers. jnr-fuse's own wrappers ({@code
 * FileStat.of}, {@code FuseFileInfo.of}) build a new Struct with ~20 member objects per call; on the hot paths
 * (getattr, read, write) this class writes at fixed offsets instead, after checking at class load that jnr-fuse's
 * layout matches the x86-64 Linux ABI. On other platforms it falls back to the jnr-fuse wrappers.
 *
 * <p>libfuse 2.9's {@code struct fuse_file_info} on x86-64: {@code int flags} @0, {@code unsigned long fh_old} @8,
 * {@code int writepage} @16, the bitfield word @20 ({@code direct_io} bit 0, {@code keep_cache} bit 1, {@code flush}
 * bit 2, {@code nonseekable} bit 3), {@code uint64_t fh} @24. jnr-fuse maps 16..23 as padding, which is why setting
 * bits "at offset 16" (reference/fuse.md §5) had no effect. Setting them at 20 in open works (measured: with bit 0 every
 * read of a 4 MB file reached READ, with bit 1 a reopened file was served from the page cache); the adapter does not
 * use per-open flags yet because the VFS SPI has no way to say "content unchanged since last open".
 */
final class NativeLayout {
  static final Runtime RUNTIME = Runtime.getSystemRuntime();

  /** Offset of {@code fuse_file_info.flags} (int). */
  static final long FI_FLAGS;
  /** Offset of {@code fuse_file_info.fh} (uint64). */
  static final long FI_FH;
  /** {@code sizeof(struct stat)}. */
  static final int STAT_SIZE;

  private static final boolean X86_64_STAT;

  static {
    FuseFileInfo fi = FuseFileInfo.of(Memory.allocateDirect(RUNTIME, 64));
    FI_FLAGS = fi.flags.offset();
    FI_FH = fi.fh.offset();
    FileStat st = new FileStat(RUNTIME);
    STAT_SIZE = Struct.size(st);
    X86_64_STAT = Platform.getNativePlatform().getOS() == Platform.OS.LINUX
        && Platform.getNativePlatform().getCPU() == Platform.CPU.X86_64
        && STAT_SIZE == 144
        && st.st_ino.offset() == 8
        && st.st_nlink.offset() == 16
        && st.st_mode.offset() == 24
        && st.st_uid.offset() == 28
        && st.st_gid.offset() == 32
        && st.st_rdev.offset() == 40
        && st.st_size.offset() == 48
        && st.st_blksize.offset() == 56
        && st.st_blocks.offset() == 64;
  }

  private NativeLayout() {}

  /** Fills a {@code struct stat}. */
  static void putStat(Pointer p, FileAttr a, int blksize) {
    if (X86_64_STAT) {
      p.setMemory(0, STAT_SIZE, (byte) 0);
      p.putLong(8, a.ino());
      p.putLong(16, a.nlink());
      p.putInt(24, a.stMode());
      p.putInt(28, a.uid());
      p.putInt(32, a.gid());
      p.putLong(40, a.rdev());
      p.putLong(48, a.size());
      p.putLong(56, blksize);
      p.putLong(64, a.blocks());
      putTime(p, 72, a.atime());
      putTime(p, 88, a.mtime());
      putTime(p, 104, a.ctime());
      return;
    }
    FileStat s = FileStat.of(p);
    p.setMemory(0, STAT_SIZE, (byte) 0);
    s.st_ino.set(a.ino());
    s.st_nlink.set(a.nlink());
    s.st_mode.set(a.stMode());
    s.st_uid.set(a.uid());
    s.st_gid.set(a.gid());
    s.st_rdev.set(a.rdev());
    s.st_size.set(a.size());
    s.st_blksize.set(blksize);
    s.st_blocks.set(a.blocks());
    setTime(s.st_atim, a.atime());
    setTime(s.st_mtim, a.mtime());
    setTime(s.st_ctim, a.ctime());
  }

  /** Fills only type and inode of a {@code struct stat}: all libfuse2's readdir filler looks at. */
  static void putDirentStat(Pointer p, FileAttr a) {
    p.setMemory(0, STAT_SIZE, (byte) 0);
    FileStat s = X86_64_STAT ? null : FileStat.of(p);
    if (s == null) {
      p.putLong(8, a.ino());
      p.putInt(24, a.stMode());
    } else {
      s.st_ino.set(a.ino());
      s.st_mode.set(a.stMode());
    }
  }

  /** Fills a {@code struct statvfs}. */
  static void putStatvfs(Pointer p, FsStats f) {
    Statvfs s = Statvfs.of(p);
    s.f_bsize.set(f.blockSize());
    s.f_frsize.set(f.blockSize());
    s.f_blocks.set(f.totalBlocks());
    s.f_bfree.set(f.freeBlocks());
    s.f_bavail.set(f.freeBlocks());
    s.f_files.set(f.totalFiles());
    s.f_ffree.set(f.freeFiles());
    s.f_favail.set(f.freeFiles());
    s.f_namemax.set(f.maxNameLength());
  }

  /** The two {@code struct timespec} of utimens as {sec0, nsec0, sec1, nsec1}. */
  static long[] timespecs(Pointer p) {
    Timespec a = Timespec.of(p);
    Timespec m = Timespec.of(p.slice(Struct.size(a)));
    return new long[] {a.tv_sec.get(), a.tv_nsec.longValue(), m.tv_sec.get(), m.tv_nsec.longValue()};
  }

  private static void putTime(Pointer p, long offset, Instant t) {
    if (t != null) {
      p.putLong(offset, t.getEpochSecond());
      p.putLong(offset + 8, t.getNano());
    }
  }

  private static void setTime(Timespec ts, Instant t) {
    if (t != null) {
      ts.tv_sec.set(t.getEpochSecond());
      ts.tv_nsec.set(t.getNano());
    }
  }
}
