package io.ossgw.fuse.jfuse;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.fuse.FuseFilesystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The listing of each open directory of a jfuse mount, taken when the kernel reads it from offset 0 and kept until
 * RELEASEDIR, so that READDIR/READDIRPLUS requests at later offsets page through one consistent snapshot (as libfuse's
 * own offset-0 buffer does) without listing the directory again per request. Keyed by the directory handle the
 * binding puts into {@code fuse_file_info.fh} at OPENDIR; libfuse serialises the requests of one handle.
 */
final class JfuseListings {
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Snapshot> open = new ConcurrentHashMap<>();

  /** A new directory handle. */
  long open() {
    return ids.incrementAndGet();
  }

  Snapshot get(long fh) {
    return open.get(fh);
  }

  void put(long fh, Snapshot s) {
    open.put(fh, s);
  }

  void remove(long fh) {
    open.remove(fh);
  }

  /** Number of directories with a snapshot (open and read at least once). */
  int size() {
    return open.size();
  }

  /** The entries of one listing in order, "." and ".." first (attributes null where unknown). */
  static final class Snapshot implements FuseFilesystem.DirFiller {
    private final List<String> names = new ArrayList<>();
    private final List<FileAttr> attrs = new ArrayList<>();

    @Override
    public boolean add(String name, FileAttr attr) {
      names.add(name);
      attrs.add(attr);
      return false;
    }

    int size() {
      return names.size();
    }

    String name(int i) {
      return names.get(i);
    }

    FileAttr attr(int i) {
      return attrs.get(i);
    }
  }
}
