package io.ossgw.fuse.jfuse;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.fuse.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.time.Instant;
import org.cryptomator.jfuse.api.FuseConfig;
import org.cryptomator.jfuse.api.Stat;
import org.cryptomator.jfuse.api.Statvfs;
import org.cryptomator.jfuse.linux.amd64.extr.fuse3.fuse_config;

/**
 * Writes {@code struct stat}, {@code struct statvfs} and {@code struct fuse_config} for the jfuse callbacks.
 *
 * <p>jfuse's {@link Stat} API has no setters for {@code st_ino}, {@code st_blksize} or {@code st_blocks}, and its
 * {@link Statvfs} none for {@code f_files}/{@code f_ffree}/{@code f_favail}; the jnr binding fills all of them (inode
 * numbers with {@code use_ino}, {@code du}, {@code df -i}, the I/O size cp/cat use). jfuse's Linux implementations
 * are records over the native {@link MemorySegment}, so this class reads that segment through the record accessor and
 * writes the x86-64 Linux layout (the only one jfuse-linux-amd64 runs on): stat is 144 bytes with {@code st_ino} @8,
 * {@code st_nlink} @16, {@code st_mode} @24, {@code st_uid} @28, {@code st_gid} @32, {@code st_rdev} @40, {@code st_size} @48, {@code
 * st_blksize} @56, {@code st_blocks} @64 and the three timespecs @72/@88/@104; statvfs has eight 64-bit counters from
 * @0 and {@code f_namemax} @80. If the segment cannot be reached (jfuse on the module path without {@code
 * --add-opens}, or a jfuse whose classes changed), the API setters are used and those fields stay 0.
 */
final class JfuseStructs {
  static final int STAT_SIZE = 144;
  private static final int STATVFS_SIZE = 112;
  private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
  private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

  /** The record accessor of the implementation class's single MemorySegment component, or null. */
  private static final ClassValue<MethodHandle> SEGMENT = new ClassValue<>() {
    @Override
    protected MethodHandle computeValue(Class<?> type) {
      try {
        if (!type.isRecord()) {
          return null;
        }
        for (var c : type.getRecordComponents()) {
          if (c.getType() == MemorySegment.class) {
            Method m = c.getAccessor();
            m.setAccessible(true);
            return MethodHandles.lookup().unreflect(m);
          }
        }
        return null;
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }
  };

  private JfuseStructs() {}

  /** The native memory behind a jfuse struct wrapper, at least {@code size} bytes, or null if unreachable. */
  static MemorySegment segment(Object wrapper, long size) {
    MethodHandle h = SEGMENT.get(wrapper.getClass());
    if (h == null) {
      return null;
    }
    try {
      MemorySegment s = (MemorySegment) h.invoke(wrapper);
      return s.byteSize() >= size ? s : NativeMemory.at(s, size);
    } catch (Throwable t) {
      return null;
    }
  }

  /** Fills the {@code struct stat} at {@code p} (at least {@value #STAT_SIZE} bytes) as the jnr binding does. */
  static void putStat(MemorySegment p, FileAttr a, int blksize) {
    p.asSlice(0, STAT_SIZE).fill((byte) 0);
    p.set(LONG, 8, a.ino());
    p.set(LONG, 16, a.nlink());
    p.set(INT, 24, a.stMode());
    p.set(INT, 28, a.uid());
    p.set(INT, 32, a.gid());
    p.set(LONG, 40, a.rdev());
    p.set(LONG, 48, a.size());
    p.set(LONG, 56, blksize);
    p.set(LONG, 64, a.blocks());
    putTime(p, 72, a.atime());
    putTime(p, 88, a.mtime());
    putTime(p, 104, a.ctime());
  }

  /**
   * Fills the whole {@code struct stat} behind a readdirplus filler's {@link Stat} (as {@link #putStat(MemorySegment,
   * FileAttr, int)}); if the segment cannot be reached, type, permissions and size through jfuse's API.
   */
  static void putStat(Stat stat, FileAttr a, int blksize) {
    MemorySegment p = segment(stat, STAT_SIZE);
    if (p == null) {
      stat.setMode(a.stMode());
      stat.setSize(a.size());
      return;
    }
    putStat(p, a, blksize);
  }

  /** Fills type and inode number: what libfuse3's readdir filler uses outside readdirplus offset mode. */
  static void putDirent(Stat stat, FileAttr a) {
    MemorySegment p = segment(stat, STAT_SIZE);
    if (p == null) {
      stat.setMode(a.stMode());
      return;
    }
    p.set(LONG, 8, a.ino());
    p.set(INT, 24, a.stMode());
  }

  /** Fills a {@code struct statvfs} as the jnr binding does. */
  static void putStatvfs(Statvfs out, FsStats f) {
    out.setBsize(f.blockSize());
    out.setFrsize(f.blockSize());
    out.setBlocks(f.totalBlocks());
    out.setBfree(f.freeBlocks());
    out.setBavail(f.freeBlocks());
    out.setNameMax(f.maxNameLength());
    MemorySegment p = segment(out, STATVFS_SIZE);
    if (p != null) {
      p.set(LONG, 40, f.totalFiles());
      p.set(LONG, 48, f.freeFiles());
      p.set(LONG, 56, f.freeFiles());
    }
  }

  /**
   * Sets {@code use_ino}, {@code hard_remove} and {@code direct_io} in libfuse 3's {@code struct fuse_config}, which
   * init may change but jfuse's {@link FuseConfig} only reads. Uses jfuse's own generated layout of the struct.
   *
   * @throws IllegalStateException if the struct cannot be reached (see the class comment)
   */
  static void configure(FuseConfig config, boolean useIno, boolean hardRemove, boolean directIo) {
    MemorySegment c = segment(config, fuse_config.layout().byteSize());
    if (c == null) {
      throw new IllegalStateException("jfuse's fuse_config segment is not reachable; use_ino/hard_remove/direct_io"
          + " cannot be set");
    }
    fuse_config.use_ino(c, useIno ? 1 : 0);
    fuse_config.hard_remove(c, hardRemove ? 1 : 0);
    fuse_config.direct_io(c, directIo ? 1 : 0);
  }

  private static void putTime(MemorySegment p, long offset, Instant t) {
    if (t != null) {
      p.set(LONG, offset, t.getEpochSecond());
      p.set(LONG, offset + 8, t.getNano());
    }
  }

}
