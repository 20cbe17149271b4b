package io.ossgw.core.engine;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.cache.Caches;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Directory mtime/ctime that move when entries are added or removed, for every front end alike (POSIX: create,
 * mkdir, rmdir, symlink, mknod, unlink and rename update the parent's st_mtime and st_ctime).
 *
 * <p>A directory in OSS is a marker object (or only a common prefix) whose stored mtime does not change when objects
 * below it come and go, and rewriting the marker on every change would cost a CopyObject each. So this view of the
 * engine's file system records, in memory, when each directory last changed through this process and shows a
 * directory's mtime and ctime as the later of its stored value and that change (getattr, readdir entries, the result
 * of setattr). An explicit mtime from setattr (utimensat, NFS SETATTR) forgets the recorded change, so it is what is
 * shown until the next change. The record is bounded ({@value #MAX_DIRECTORIES} directories, each forgotten an hour
 * after its last change): a forgotten or restarted record only shows the stored time again. NFS clients revalidate
 * cached listings by a directory's mtime (RFC 1813 §4.10), FUSE's kernel cache by the attributes after it invalidates
 * the parent. SEMANTICS.md "Directory times".
 */
final class DirectoryTimes extends ForwardingFileSystem {
  static final int MAX_DIRECTORIES = 100_000;

  private final Cache<String, Instant> changes;

  /**
   * @param fs the engine's file system
   * @param ticker the clock of the record's expiry (tests move it)
   */
  DirectoryTimes(VirtualFileSystem fs, Ticker ticker) {
    super(fs);
    this.changes = Caches.newBuilder().maximumSize(MAX_DIRECTORIES).expireAfterWrite(Duration.ofHours(1))
        .ticker(ticker).build();
  }

  private void changedParentOf(String path) {
    changedParentOf(path, Instant.now()); // the engine's clock for every time it stores (the wall clock)
  }

  private void changedParentOf(String path, Instant now) {
    if (!VPaths.isRoot(path)) {
      changes.asMap().merge(VPaths.parent(path), now, DirectoryTimes::later);
    }
  }

  /** {@code a} with the recorded change of directory {@code path} applied, or {@code a} itself. */
  private FileAttr shown(String path, FileAttr a) {
    if (a == null || !a.isDirectory() || path == null) {
      return a;
    }
    Instant c = changes.getIfPresent(path);
    if (c == null || (!c.isAfter(a.mtime()) && !c.isAfter(a.ctime()))) {
      return a;
    }
    return new FileAttr(a.ino(), a.type(), a.mode(), a.uid(), a.gid(), a.size(), a.atime(), later(a.mtime(), c),
        later(a.ctime(), c), a.etag(), a.rdev(), a.nlink());
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  @Override
  public FileAttr getattr(String path) {
    return shown(path, fs.getattr(path));
  }

  @Override
  public FileAttr getattrBeforeCreate(String path) {
    return shown(path, fs.getattrBeforeCreate(path));
  }

  @Override
  public DirPage readdir(String path, String after, int maxEntries) {
    DirPage p = fs.readdir(path, after, maxEntries);
    if (changes.estimatedSize() == 0) {
      return p; // nothing recorded (a read-only mount, or after a restart): no copy of the page
    }
    List<DirEntry> entries = new ArrayList<>(p.entries().size());
    boolean shifted = false;
    for (DirEntry e : p.entries()) {
      FileAttr a = shown(VPaths.child(path, e.name()), e.attr());
      shifted |= a != e.attr();
      entries.add(e.withAttr(a));
    }
    return shifted ? new DirPage(entries, p.eof()) : p;
  }

  /** Also when {@code create} opens an existing file (O_CREAT without O_EXCL): the parent may show a later time. */
  @Override
  public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) {
    FileHandle h = fs.create(path, mode, flags, exclusive, caller);
    changedParentOf(path);
    return h;
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    FileAttr a = fs.mkdir(path, mode, caller);
    changedParentOf(path);
    return a;
  }

  @Override
  public void unlink(String path) {
    fs.unlink(path);
    changedParentOf(path);
  }

  @Override
  public void rmdir(String path) {
    fs.rmdir(path);
    changes.invalidate(path); // a new directory of the name starts from its own marker's time
    changedParentOf(path);
  }

  /** Both parents change; the recorded times of a renamed directory and of those below it move with it. */
  @Override
  public void rename(String from, String to) {
    fs.rename(from, to);
    String below = from + "/";
    for (Map.Entry<String, Instant> e : List.copyOf(changes.asMap().entrySet())) {
      String p = e.getKey();
      if (p.equals(from) || p.startsWith(below)) {
        changes.asMap().remove(p, e.getValue());
        changes.put(to + p.substring(from.length()), e.getValue());
      }
    }
    Instant now = Instant.now(); // one change: both parents show the same time, as one rename(2) on a local disk
    changedParentOf(from, now);
    changedParentOf(to, now);
  }

  @Override
  public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) {
    FileAttr a = fs.setattr(path, changes, handle, caller);
    if (a.isDirectory() && changes.mtime() != null && changes.mtime().equals(a.mtime())) {
      // utimensat/SETATTR mtime wins over an earlier change (not on the mount root, which keeps no times)
      this.changes.invalidate(path);
    }
    return shown(path, a);
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    FileAttr a = fs.symlink(target, linkPath, caller);
    changedParentOf(linkPath);
    return a;
  }

  @Override
  public FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    FileAttr a = fs.mknod(path, type, mode, rdev, caller);
    changedParentOf(path);
    return a;
  }

  @Override
  public FileAttr fgetattr(FileHandle handle) {
    return fs.fgetattr(handle); // handles are of files, never of directories
  }
}
