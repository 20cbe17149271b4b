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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A map-based in-memory {@link VirtualFileSystem} for the adapter's tests: it stands in for the OSS engine below the
 * adapter and follows the SPI's contract (errnos, sorted listings, sparse files, renames of open files). File data is
 * held in 1 MiB chunks so that a 1 GiB fio file fits without one huge array.
 *
 * <p>Fault injection: any path containing {@link #explodeOn} makes getattr/readdir/open throw an {@link
 * IllegalStateException}, which the adapter must report as EIO.
 */
final class InMemoryVfs implements VirtualFileSystem {
  static final int CHUNK = 1 << 20;

  /** A file system with one directory {@code /many} of {@code n} empty files {@code file-0} ... (root's, 0644). */
  static InMemoryVfs withManyFiles(int n) {
    InMemoryVfs vfs = new InMemoryVfs();
    vfs.mkdir("/many", 0755, Caller.ROOT);
    for (int i = 0; i < n; i++) {
      vfs.release(vfs.create("/many/file-" + i, 0644, OpenFlags.READ_WRITE, true, Caller.ROOT));
    }
    return vfs;
  }
  /** UTF-8 byte order, the order OSS lists, equals code point order. */
  private static final Comparator<String> UTF8_ORDER = InMemoryVfs::compareCodePoints;

  final class Node {
    final FileType type;
    final long ino = nextIno.getAndIncrement();
    int mode;
    int uid;
    int gid;
    Instant atime;
    Instant mtime;
    Instant ctime;
    final TreeMap<String, Node> children;
    final List<byte[]> chunks = new ArrayList<>();
    long size;
    String target;
    volatile boolean linked = true; // false once unlinked: open handles answer fstat with st_nlink 0

    Node(FileType type, int mode, Caller c) {
      this.type = type;
      this.mode = mode & 07777;
      this.uid = c.uid();
      this.gid = c.gid();
      this.atime = this.mtime = this.ctime = Instant.now();
      this.children = type == FileType.DIRECTORY ? new TreeMap<>(UTF8_ORDER) : null;
    }

    FileAttr attr() {
      long sz = type == FileType.DIRECTORY ? FileAttr.DIRECTORY_SIZE : type == FileType.SYMLINK
          ? target.getBytes(StandardCharsets.UTF_8).length : size;
      return new FileAttr(ino, type, mode, uid, gid, sz, atime, mtime, ctime, null);
    }
  }

  final class Handle implements FileHandle {
    final Node node;
    final OpenFlags flags;
    volatile String path;
    volatile boolean open = true;

    Handle(Node node, String path, OpenFlags flags) {
      this.node = node;
      this.path = path;
      this.flags = flags;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public OpenFlags flags() {
      return flags;
    }
  }

  private final AtomicLong nextIno = new AtomicLong(1);
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Node root = new Node(FileType.DIRECTORY, 0755, Caller.ROOT);
  private final Set<Handle> handles = ConcurrentHashMap.newKeySet();
  final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
  volatile String explodeOn;
  /** When set, collects the id of every java.lang.Thread that calls getattr/read/write (jffi attach churn). */
  volatile Set<Long> callerThreads;

  long calls(String op) {
    AtomicLong n = calls.get(op);
    return n == null ? 0 : n.get();
  }

  int openHandles() {
    return handles.size();
  }

  private void track() {
    Set<Long> t = callerThreads;
    if (t != null) {
      t.add(Thread.currentThread().threadId());
    }
  }

  private void count(String op, String path) {
    calls.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
    String boom = explodeOn;
    if (boom != null && path != null && path.contains(boom)) {
      throw new IllegalStateException("injected failure for " + path);
    }
  }

  // ---- path resolution (caller holds the lock) ----

  private static List<String> split(String path) {
    if (!path.startsWith("/")) {
      throw new FsException(Errno.EINVAL, "relative path " + path);
    }
    List<String> parts = new ArrayList<>();
    for (String p : path.split("/")) {
      if (!p.isEmpty()) {
        if (p.getBytes(StandardCharsets.UTF_8).length > 255) {
          throw new FsException(Errno.ENAMETOOLONG, path);
        }
        parts.add(p);
      }
    }
    return parts;
  }

  private Node find(String path) {
    Node n = root;
    for (String p : split(path)) {
      if (n.type != FileType.DIRECTORY) {
        throw new FsException(Errno.ENOTDIR, path);
      }
      n = n.children.get(p);
      if (n == null) {
        throw new FsException(Errno.ENOENT, path);
      }
    }
    return n;
  }

  private Node parentOf(String path) {
    List<String> parts = split(path);
    if (parts.isEmpty()) {
      throw new FsException(Errno.EBUSY, "the root");
    }
    Node parent = find("/" + String.join("/", parts.subList(0, parts.size() - 1)));
    if (parent.type != FileType.DIRECTORY) {
      throw new FsException(Errno.ENOTDIR, path);
    }
    return parent;
  }

  private static String name(String path) {
    List<String> parts = split(path);
    return parts.get(parts.size() - 1);
  }

  // ---- metadata ----

  @Override
  public FileAttr getattr(String path) {
    count("getattr", path);
    track();
    lock.readLock().lock();
    try {
      Node n = find(path);
      synchronized (n) {
        return n.attr();
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /** One page, in position order ({@link DirEntry#position()}), as the engine pages. */
  @Override
  public DirPage readdir(String path, String after, int maxEntries) {
    count("readdir", path);
    lock.readLock().lock();
    try {
      Node d = find(path);
      if (d.type != FileType.DIRECTORY) {
        throw new FsException(Errno.ENOTDIR, path);
      }
      List<DirEntry> all = new ArrayList<>();
      d.children.forEach((k, v) -> all.add(new DirEntry(k, v.attr())));
      all.sort((a, b) -> DirPage.compare(a.position(), b.position()));
      List<DirEntry> out = new ArrayList<>();
      int i = 0;
      while (i < all.size() && after != null && DirPage.compare(all.get(i).position(), after) <= 0) {
        i++;
      }
      for (; i < all.size() && out.size() < maxEntries; i++) {
        out.add(all.get(i));
      }
      return new DirPage(out, i >= all.size());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    count("mkdir", path);
    return addNode(path, new Node(FileType.DIRECTORY, mode, caller)).attr();
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    count("symlink", linkPath);
    Node n = new Node(FileType.SYMLINK, 0777, caller);
    n.target = target;
    return addNode(linkPath, n).attr();
  }

  private Node addNode(String path, Node n) {
    lock.writeLock().lock();
    try {
      Node parent = parentOf(path);
      String name = name(path);
      if (parent.children.containsKey(name)) {
        throw new FsException(Errno.EEXIST, path);
      }
      parent.children.put(name, n);
      parent.mtime = parent.ctime = Instant.now();
      return n;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public String readlink(String path) {
    count("readlink", path);
    lock.readLock().lock();
    try {
      Node n = find(path);
      if (n.type != FileType.SYMLINK) {
        throw new FsException(Errno.EINVAL, path);
      }
      return n.target;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void unlink(String path) {
    count("unlink", path);
    remove(path, false);
  }

  @Override
  public void rmdir(String path) {
    count("rmdir", path);
    remove(path, true);
  }

  private void remove(String path, boolean dir) {
    lock.writeLock().lock();
    try {
      Node parent = parentOf(path);
      Node n = parent.children.get(name(path));
      if (n == null) {
        throw new FsException(Errno.ENOENT, path);
      }
      if (dir && n.type != FileType.DIRECTORY) {
        throw new FsException(Errno.ENOTDIR, path);
      }
      if (!dir && n.type == FileType.DIRECTORY) {
        throw new FsException(Errno.EISDIR, path);
      }
      if (dir && !n.children.isEmpty()) {
        throw new FsException(Errno.ENOTEMPTY, path);
      }
      parent.children.remove(name(path));
      n.linked = false;
      parent.mtime = parent.ctime = Instant.now();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** From the open node, as the engine answers it: an unlinked file keeps its attributes with {@code st_nlink} 0. */
  @Override
  public FileAttr fgetattr(FileHandle fh) {
    count("fgetattr", fh.path());
    Node n = ((Handle) fh).node;
    synchronized (n) {
      return n.linked ? n.attr() : n.attr().unlinked();
    }
  }

  @Override
  public void rename(String from, String to) {
    count("rename", from);
    lock.writeLock().lock();
    try {
      Node fromParent = parentOf(from);
      Node n = fromParent.children.get(name(from));
      if (n == null) {
        throw new FsException(Errno.ENOENT, from);
      }
      if (from.equals(to)) {
        return;
      }
      if (n.type == FileType.DIRECTORY && (to + "/").startsWith(from + "/")) {
        throw new FsException(Errno.EINVAL, "into itself: " + to);
      }
      Node toParent = parentOf(to);
      Node existing = toParent.children.get(name(to));
      if (existing != null) {
        if (existing.type == FileType.DIRECTORY && n.type != FileType.DIRECTORY) {
          throw new FsException(Errno.EISDIR, to);
        }
        if (existing.type != FileType.DIRECTORY && n.type == FileType.DIRECTORY) {
          throw new FsException(Errno.ENOTDIR, to);
        }
        if (existing.type == FileType.DIRECTORY && !existing.children.isEmpty()) {
          throw new FsException(Errno.ENOTEMPTY, to);
        }
      }
      fromParent.children.remove(name(from));
      toParent.children.put(name(to), n);
      Instant now = Instant.now();
      fromParent.mtime = fromParent.ctime = toParent.mtime = toParent.ctime = n.ctime = now;
      for (Handle h : handles) {
        if (h.path.equals(from) || h.path.startsWith(from + "/")) {
          h.path = to + h.path.substring(from.length());
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public FileAttr setattr(String path, SetAttr c, FileHandle handle, Caller caller) {
    count("setattr", path);
    lock.readLock().lock();
    try {
      Node n = handle != null ? ((Handle) handle).node : find(path);
      synchronized (n) {
        if (c.size() != null) {
          if (n.type == FileType.DIRECTORY) {
            throw new FsException(Errno.EISDIR, path);
          }
          resize(n, c.size());
          n.mtime = Instant.now();
        }
        if (c.mode() != null) {
          n.mode = c.mode() & 07777;
        }
        if (c.uid() != null) {
          n.uid = c.uid();
        }
        if (c.gid() != null) {
          n.gid = c.gid();
        }
        if (c.atime() != null) {
          n.atime = c.atime();
        }
        if (c.mtime() != null) {
          n.mtime = c.mtime();
        }
        n.ctime = Instant.now();
        return n.attr();
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public FsStats statfs() {
    count("statfs", "/");
    return new FsStats(4096, 1L << 32, (1L << 32) - 1000, 1_000_000, 999_000, 255);
  }

  // ---- data ----

  @Override
  public FileHandle open(String path, OpenFlags flags, Caller caller) {
    count("open", path);
    lock.readLock().lock();
    try {
      Node n = find(path);
      if (n.type == FileType.DIRECTORY) {
        throw new FsException(Errno.EISDIR, path);
      }
      return newHandle(n, path, flags);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) {
    count("create", path);
    lock.writeLock().lock();
    try {
      Node parent = parentOf(path);
      Node n = parent.children.get(name(path));
      if (n != null) {
        if (exclusive) {
          throw new FsException(Errno.EEXIST, path);
        }
        if (n.type == FileType.DIRECTORY) {
          throw new FsException(Errno.EISDIR, path);
        }
      } else {
        n = new Node(FileType.REGULAR, mode, caller);
        parent.children.put(name(path), n);
        parent.mtime = parent.ctime = Instant.now();
      }
      return newHandle(n, path, flags);
    } finally {
      lock.writeLock().unlock();
    }
  }

  private Handle newHandle(Node n, String path, OpenFlags flags) {
    Handle h = new Handle(n, path, flags);
    if (flags.truncate() && flags.write()) {
      synchronized (n) {
        resize(n, 0);
        n.mtime = n.ctime = Instant.now();
      }
    }
    handles.add(h);
    return h;
  }

  private static Handle live(FileHandle fh) {
    Handle h = (Handle) fh;
    if (!h.open) {
      throw new FsException(Errno.EBADF, h.path);
    }
    return h;
  }

  @Override
  public int read(FileHandle fh, long offset, ByteBuffer dst) {
    track();
    Handle h = live(fh);
    Node n = h.node;
    synchronized (n) {
      if (offset >= n.size) {
        return 0;
      }
      int len = (int) Math.min(dst.remaining(), n.size - offset);
      int done = 0;
      while (done < len) {
        long pos = offset + done;
        int ci = (int) (pos / CHUNK);
        int co = (int) (pos % CHUNK);
        int k = Math.min(len - done, CHUNK - co);
        byte[] chunk = ci < n.chunks.size() ? n.chunks.get(ci) : null;
        if (chunk == null) {
          for (int i = 0; i < k; i++) {
            dst.put((byte) 0);
          }
        } else {
          dst.put(chunk, co, k);
        }
        done += k;
      }
      return len;
    }
  }

  @Override
  public int write(FileHandle fh, long offset, ByteBuffer src) {
    track();
    Handle h = live(fh);
    if (!h.flags.write()) {
      throw new FsException(Errno.EBADF, "not open for writing: " + h.path);
    }
    Node n = h.node;
    int len = src.remaining();
    synchronized (n) {
      int done = 0;
      while (done < len) {
        long pos = offset + done;
        int ci = (int) (pos / CHUNK);
        int co = (int) (pos % CHUNK);
        int k = Math.min(len - done, CHUNK - co);
        while (n.chunks.size() <= ci) {
          n.chunks.add(null);
        }
        byte[] chunk = n.chunks.get(ci);
        if (chunk == null) {
          chunk = new byte[CHUNK];
          n.chunks.set(ci, chunk);
        }
        src.get(chunk, co, k);
        done += k;
      }
      n.size = Math.max(n.size, offset + len);
      n.mtime = n.ctime = Instant.now();
    }
    return len;
  }

  private static void resize(Node n, long size) {
    if (size < n.size) {
      int keep = (int) ((size + CHUNK - 1) / CHUNK);
      while (n.chunks.size() > keep) {
        n.chunks.remove(n.chunks.size() - 1);
      }
      int co = (int) (size % CHUNK);
      if (co != 0 && keep > 0 && n.chunks.get(keep - 1) != null) {
        byte[] c = n.chunks.get(keep - 1);
        Arrays.fill(c, co, CHUNK, (byte) 0);
      }
    }
    n.size = size;
  }

  @Override
  public void flush(FileHandle handle) {
    count("flush", handle.path());
    live(handle);
  }

  @Override
  public void fsync(FileHandle handle, boolean dataOnly) {
    count("fsync", handle.path());
    live(handle);
  }

  @Override
  public void release(FileHandle handle) {
    count("release", handle.path());
    Handle h = live(handle);
    h.open = false;
    handles.remove(h);
  }

  @Override
  public void close() {
    handles.clear();
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
