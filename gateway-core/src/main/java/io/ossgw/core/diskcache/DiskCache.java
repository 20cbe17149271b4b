package io.ossgw.core.diskcache;

import io.ossgw.core.observe.EngineObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The persistent local data cache of ossfs's {@code use_cache=DIR}: bytes read from OSS are kept in one sparse data
 * file per object ({@code <dir>/<bucket>/<mount id>/data/<sha-256 of the key>}), with the byte ranges it holds, the
 * object's ETag and size, and a last-use stamp in an index ({@code index.mv}, an H2 MVStore) so the cache survives a
 * restart. An entry is used only for a read pinned to the same ETag; a read pinned to another ETag drops it (the object
 * changed). When storing would leave less free disk than {@code ensure_diskfree} / {@code free_space_ratio} asks,
 * least-recently-used entries are evicted first; if that is not enough the bytes are simply not cached.
 *
 * <p>Thread-safe: reads of cached bytes share a read lock; stores, drops and evictions take the write lock.
 */
public final class DiskCache implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(DiskCache.class.getName());

  private final DiskCacheSettings settings;
  private final EngineObserver observer;
  private final Path root;
  private final Path data;
  private final MVStore index;
  private final MVMap<String, byte[]> entries;
  private final Map<String, CacheEntry> byKey = new HashMap<>();
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicLong clock = new AtomicLong();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private long usedBytes;
  private boolean closed;

  private DiskCache(DiskCacheSettings settings, Path root, MVStore index, EngineObserver observer) {
    this.settings = settings;
    this.observer = observer;
    this.root = root;
    this.data = root.resolve("data");
    this.index = index;
    this.entries = index.openMap("entries");
  }

  /**
   * Opens (creating if needed) the cache of one mount: {@code <use_cache>/<bucket>/<mountId>}. With {@code del_cache}
   * what was there is deleted first. Entries whose data file is missing are dropped and data files without an entry are
   * deleted.
   *
   * @param mountId a short id of endpoint, bucket and prefix (so two mounts never share an index)
   * @throws IllegalArgumentException with {@code check_cache_dir_exist} when the directory does not exist
   * @throws UncheckedIOException when the directory cannot be created
   * @throws IllegalStateException when the index is locked by another process (another gateway on the same mount)
   */
  public static DiskCache open(DiskCacheSettings settings, String bucket, String mountId) {
    return open(settings, bucket, mountId, EngineObserver.NONE);
  }

  /** As {@link #open(DiskCacheSettings, String, String)}, reporting lookups and evictions as cache {@code disk}. */
  public static DiskCache open(DiskCacheSettings settings, String bucket, String mountId, EngineObserver observer) {
    if (settings.checkDirExist() && !Files.isDirectory(settings.dir())) {
      throw new IllegalArgumentException("use_cache directory " + settings.dir()
          + " does not exist (check_cache_dir_exist is set)");
    }
    Path root = settings.dir().resolve(bucket).resolve(mountId);
    try {
      if (settings.delCache()) {
        deleteTree(root);
      }
      Files.createDirectories(root.resolve("data"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create use_cache directory " + root, e);
    }
    MVStore index;
    try {
      index = new MVStore.Builder().fileName(root.resolve("index.mv").toString()).open();
    } catch (RuntimeException e) {
      throw new IllegalStateException("use_cache index in " + root + " is in use by another process or unreadable: "
          + e.getMessage(), e);
    }
    DiskCache c = new DiskCache(settings, root, index, observer);
    c.load();
    return c;
  }

  /** The directory of this mount's cache. */
  public Path root() {
    return root;
  }

  /** Bytes of object data held now. */
  public long usedBytes() {
    lock.readLock().lock();
    try {
      return usedBytes;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Objects with cached data now. */
  public int entryCount() {
    lock.readLock().lock();
    try {
      return byKey.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Reads served from the disk. */
  public long hits() {
    return hits.get();
  }

  /** Reads the disk could not serve (absent, partial or stale). */
  public long misses() {
    return misses.get();
  }

  /**
   * Reads {@code dst.remaining()} bytes at {@code offset} of version {@code etag} of an object, if all of them are
   * cached (fewer at the end of the object).
   *
   * @return the object's size (the caller derives the byte count from {@code dst}'s position), or -1 when the bytes are
   *     not all cached; an entry of another ETag is dropped
   */
  public long read(String key, String etag, long offset, ByteBuffer dst) {
    CacheEntry stale = null;
    lock.readLock().lock();
    try {
      CacheEntry e = byKey.get(key);
      if (e != null && !e.etag.equalsIgnoreCase(etag)) {
        stale = e;
      } else if (e != null) {
        long end = Math.min(e.objectSize, offset + dst.remaining());
        if (offset >= e.objectSize || e.present.covers(offset, end)) {
          int len = (int) Math.max(0, end - offset);
          if (readFile(e, offset, dst, len)) {
            e.lastUse = clock.incrementAndGet();
            hits.incrementAndGet();
            observer.cacheLookups("disk", true, 1);
            return e.objectSize;
          }
        }
      }
    } finally {
      lock.readLock().unlock();
    }
    misses.incrementAndGet();
    observer.cacheLookups("disk", false, 1);
    if (stale != null) {
      invalidate(key, stale.etag);
    }
    return -1;
  }

  private boolean readFile(CacheEntry e, long offset, ByteBuffer dst, int len) {
    int start = dst.position();
    ByteBuffer view = dst.duplicate().limit(start + len);
    try (FileChannel ch = FileChannel.open(data.resolve(e.file), StandardOpenOption.READ)) {
      while (view.hasRemaining()) {
        if (ch.read(view, offset + (view.position() - start)) < 0) {
          return false;
        }
      }
    } catch (IOException ex) {
      return false; // the file went away (evicted by another process's del_cache, disk error): read from OSS
    }
    dst.position(start + len);
    return true;
  }

  /**
   * Stores bytes read from OSS: {@code src}'s remaining bytes are {@code [offset, ...)} of version {@code etag} of an
   * object of {@code objectSize} bytes. An entry of another ETag is replaced. Least-recently-used entries are evicted
   * to keep the free-space reserve; when that is not enough nothing is stored.
   */
  public void store(String key, String etag, long objectSize, long offset, ByteBuffer src) {
    int len = src.remaining();
    if (len == 0 || etag == null || objectSize < 0) {
      return;
    }
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      CacheEntry e = byKey.get(key);
      if (e != null && (!e.etag.equalsIgnoreCase(etag) || e.objectSize != objectSize)) {
        drop(e);
        e = null;
      }
      long added = len;
      if (e != null) {
        added = 0;
        for (long[] g : e.present.gaps(offset, offset + len)) {
          added += g[1] - g[0];
        }
        if (added == 0) {
          e.lastUse = clock.incrementAndGet();
          return;
        }
      }
      if (!makeRoom(added, key)) {
        return;
      }
      if (e == null) {
        e = new CacheEntry(key, fileName(key));
        e.etag = etag;
        e.objectSize = objectSize;
        byKey.put(key, e);
      }
      try (FileChannel ch = FileChannel.open(data.resolve(e.file), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        ByteBuffer s = src.duplicate();
        long pos = offset;
        while (s.hasRemaining()) {
          pos += ch.write(s, pos);
        }
      } catch (IOException ex) {
        LOG.log(System.Logger.Level.WARNING, "use_cache: cannot write " + e.file + ": " + ex.getMessage());
        drop(e);
        return;
      }
      e.present.add(offset, offset + len);
      e.lastUse = clock.incrementAndGet();
      usedBytes += added;
      entries.put(key, e.encode());
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Drops an object's entry (it was written, deleted or replaced through this gateway). */
  public void invalidate(String key) {
    invalidate(key, null);
  }

  private void invalidate(String key, String onlyEtag) {
    lock.writeLock().lock();
    try {
      CacheEntry e = byKey.get(key);
      if (e != null && (onlyEtag == null || e.etag.equalsIgnoreCase(onlyEtag))) {
        drop(e);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Evicts least-recently-used entries (never {@code keep}) until {@code need} more bytes leave the reserve free. */
  private boolean makeRoom(long need, String keep) {
    while (free() - need < reserve()) {
      CacheEntry victim = byKey.values().stream().filter(x -> !x.key.equals(keep))
          .min(Comparator.comparingLong(x -> x.lastUse)).orElse(null);
      if (victim == null) {
        return false;
      }
      drop(victim);
      observer.cacheEviction("disk");
    }
    return true;
  }

  /** Free bytes on the cache's file system (or {@code fake_diskfree} minus the cache's own data). */
  private long free() {
    if (settings.fakeDiskfree() > 0) {
      return settings.fakeDiskfree() - usedBytes;
    }
    try {
      return Files.getFileStore(root).getUsableSpace();
    } catch (IOException e) {
      return 0;
    }
  }

  /** Bytes that must stay free: {@code ensure_diskfree}, or {@code free_space_ratio} percent of the file system. */
  private long reserve() {
    if (settings.freeSpaceRatio() > 0) {
      long total = settings.fakeDiskfree();
      if (total <= 0) {
        try {
          FileStore fs = Files.getFileStore(root);
          total = fs.getTotalSpace();
        } catch (IOException e) {
          return Long.MAX_VALUE;
        }
      }
      return total / 100 * settings.freeSpaceRatio();
    }
    return settings.ensureDiskfree();
  }

  private void drop(CacheEntry e) {
    byKey.remove(e.key);
    entries.remove(e.key);
    usedBytes -= e.present.bytes();
    try {
      Files.deleteIfExists(data.resolve(e.file));
    } catch (IOException ex) {
      LOG.log(System.Logger.Level.WARNING, "use_cache: cannot delete " + e.file + ": " + ex.getMessage());
    }
  }

  /** Rebuilds the in-memory table from the index; drops entries without data and data without entries. */
  private void load() {
    long maxUse = 0;
    for (Map.Entry<String, byte[]> me : entries.entrySet()) {
      CacheEntry e = CacheEntry.decode(me.getKey(), me.getValue());
      if (e == null || !Files.isRegularFile(data.resolve(e.file))) {
        entries.remove(me.getKey());
        continue;
      }
      byKey.put(e.key, e);
      usedBytes += e.present.bytes();
      maxUse = Math.max(maxUse, e.lastUse);
    }
    clock.set(maxUse);
    Map<String, Boolean> files = new HashMap<>();
    byKey.values().forEach(e -> files.put(e.file, true));
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(data)) {
      for (Path p : ds) {
        if (!files.containsKey(p.getFileName().toString())) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.WARNING, "use_cache: cannot scan " + data + ": " + e.getMessage());
    }
  }

  /** Writes the index; with {@code del_cache} deletes this mount's cache directory. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      index.close();
      if (settings.delCache()) {
        deleteTree(root);
      }
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "use_cache: closing " + root + ": " + e.getMessage());
    } finally {
      lock.writeLock().unlock();
    }
  }

  private static String fileName(String key) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 20);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        try {
          Files.deleteIfExists(p);
        } catch (NoSuchFileException ignored) {
          // gone already
        }
      }
    }
  }
}
