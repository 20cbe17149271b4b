package io.ossgw.core.engine;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.cache.DirCache;
import io.ossgw.core.cache.ListingWindow;
import io.ossgw.core.cache.MetadataBudget;
import io.ossgw.core.cache.MetaStore;
import io.ossgw.core.cache.MetadataCache;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.namespace.KeyMapper;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Caller;
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
import io.ossgw.core.write.Uploader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The engine's {@link VirtualFileSystem}: ossfs's on-bucket format over one {@link ObjectStore}, with the metadata
 * caches, read-ahead and write staging of this package. SEMANTICS.md documents each operation's behaviour and cost.
 */
final class OssFileSystem implements VirtualFileSystem {
  private static final System.Logger LOG = System.getLogger(OssFileSystem.class.getName());
  private static final int MAX_SYMLINK = 64 * 1024;

  private final EngineConfig config;
  private final ObjectStore store;
  private final KeyMapper keys;
  private final MetaStore metaStore;
  private final OpenFiles openFiles = new OpenFiles();
  private final ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
  private final Namespace ns;
  private final DataPath data;
  private final Readers readers;
  private final Renamer renamer;
  private final AttrWriter attrWriter;
  private final SpecialFiles specialFiles;

  OssFileSystem(EngineConfig config, ObjectStore store, BufferPool pool, BufferPool writePool, MetaStore metaStore,
      Ticker ticker) {
    this.config = config;
    this.store = store;
    this.keys = new KeyMapper(config.prefix());
    this.metaStore = metaStore;
    PosixMeta posix = new PosixMeta(config.defaultUid(), config.defaultGid(), config.uidOverride(), config.gidOverride(),
        config.umask());
    MetadataBudget budget = MetadataBudget.forHeap(config.maxStatCacheSize());
    boolean heapBound = config.maxStatCacheSize() * MetadataBudget.OSSFS_ENTRY_BYTES > budget.statBytes();
    // validated at start-up: say so when the heap, not max_stat_cache_size, bounds the caches (memory_limit)
    LOG.log(heapBound ? System.Logger.Level.INFO : System.Logger.Level.DEBUG, budget.describe() + (heapBound
        ? " (an eighth of the heap each, less than max_stat_cache_size=" + config.maxStatCacheSize() + " would take)" : ""));
    MetadataCache stat = new MetadataCache(config.statCacheExpire(), config.statCacheSliding(), budget.statBytes(),
        config.negativeCache(), ticker);
    DirCache dirs = new DirCache(config.statCacheExpire(), config.statCacheSliding(), budget.listingBytes(), ticker);
    ListingWindow window = new ListingWindow(config.statCacheExpire(), config.statCacheSliding(), budget.windowBytes(),
        ticker);
    this.ns = new Namespace(config, store, keys, posix, stat, dirs, window, budget.wholeDirBytes(), metaStore, openFiles,
        new ParallelHeads(io, config.multireqMax()));
    Uploader uploader = new Uploader(store, io, config.multipartSize(), config.parallelCount(), config.noMultipart(),
        config.multipartCopySize());
    ObjectCopier copier = new ObjectCopier(store, io, config.singlepartCopyLimit(), config.multipartCopySize(),
        config.parallelCount());
    this.data = new DataPath(config, store, io, ns, uploader, copier, writePool);
    this.readers = new Readers(store, pool, io, config.prefetchChunks(), config.backwardChunks(), config.prefetchThreads());
    this.renamer = new Renamer(store, io, ns, openFiles, copier, config.listMaxKeys(), config.singlepartCopyLimit());
    this.attrWriter = new AttrWriter(store, copier, ns);
    this.specialFiles = new SpecialFiles(store, keys, ns);
  }

  @Override
  public FileAttr getattr(String path) {
    return ns.resolve(path).attr();
  }

  /** {@inheritDoc} One ListObjectsV2 for a name no cache knows ({@link Namespace#lookupNew}). */
  @Override
  public FileAttr getattrBeforeCreate(String path) {
    return ns.resolveNew(path).attr();
  }

  @Override
  public DirPage readdir(String path, String after, int maxEntries) {
    VPaths.check(path);
    if (maxEntries < 1) {
      throw new FsException(Errno.EINVAL, "readdir of " + path + " asked for " + maxEntries + " entries");
    }
    return ns.page(path, after, maxEntries);
  }

  @Override
  public FileHandle open(String path, OpenFlags flags, Caller caller) {
    Node resolved = ns.resolve(path);
    // a write uploads the file's metadata: never from readdir_optimize's listing defaults (one HEAD instead)
    Node node = flags.write() && !resolved.metaKnown() && !resolved.isDirectory() ? ns.lookup(path) : resolved;
    if (node.isDirectory()) {
      throw new FsException(Errno.EISDIR, path);
    }
    if (node.attr().type().special()) {
      // a fifo/device/socket is opened by the client's kernel, never here; ENXIO as for a device without a driver
      throw new FsException(Errno.ENXIO, path + " is a special file");
    }
    OpenFile file = openFiles.acquire(path, () -> new OpenFile(data, path, node.objectKey(), node, false));
    OssHandle h = new OssHandle(file, flags);
    if (flags.truncate()) { // O_RDONLY|O_TRUNC too: Linux truncates once the kernel has checked write permission
      try {
        file.truncate(0);
      } catch (RuntimeException e) {
        release(h);
        throw e;
      }
    }
    return h;
  }

  @Override
  public FileHandle create(String path, int mode, OpenFlags flags, boolean exclusive, Caller caller) {
    VPaths.check(path);
    Node existing = ns.resolveOrNull(path);
    if (existing != null) {
      if (exclusive) {
        throw new FsException(Errno.EEXIST, path);
      }
      return open(path, flags, caller);
    }
    Caller owner = creatorIn(VPaths.parent(path), caller);
    String key = keys.fileKey(path);
    Instant now = Instant.now();
    FileAttr a = new FileAttr(Inodes.of(key), FileType.REGULAR, mode & 07777, owner.uid(), owner.gid(), 0, now, now, now, null);
    Node node = new Node(a, Origin.PENDING, key, null, WriteMeta.OCTET_STREAM, Map.of(), null, null, -1);
    OpenFile file = openFiles.acquire(path, () -> new OpenFile(data, path, key, node, true));
    ns.recordWritten(path, file.currentNode());
    return new OssHandle(file, flags);
  }

  @Override
  public int read(FileHandle handle, long offset, ByteBuffer dst) {
    OssHandle h = OssHandle.of(handle);
    if (!h.flags().read()) {
      throw new FsException(Errno.EBADF, handle.path() + " is not open for reading");
    }
    OpenFile f = h.file;
    if (f.staged()) {
      return f.readStaged(offset, dst);
    }
    if (f.pendingCreate()) {
      return 0;
    }
    return readers.read(h, ns, offset, dst);
  }

  @Override
  public int write(FileHandle handle, long offset, ByteBuffer src) {
    OssHandle h = OssHandle.of(handle);
    if (!h.flags().write()) {
      throw new FsException(Errno.EBADF, handle.path() + " is not open for writing");
    }
    return h.file.write(offset, src);
  }

  @Override
  public void flush(FileHandle handle) {
    OssHandle.of(handle).file.flushAtClose();
  }

  @Override
  public void fsync(FileHandle handle, boolean dataOnly) {
    OssHandle.of(handle).file.flush();
  }

  @Override
  public void release(FileHandle handle) {
    OssHandle h = OssHandle.of(handle);
    if (!h.markReleased()) {
      return;
    }
    h.closeReader();
    OpenFile f = h.file;
    try {
      f.flushAtRelease();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "upload of " + f.path() + " at close failed; its changes are lost: " + e.getMessage());
    } finally {
      if (openFiles.release(f)) {
        f.dispose();
      }
    }
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    VPaths.check(path);
    if (VPaths.isRoot(path) || ns.resolveOrNull(path) != null) {
      throw new FsException(Errno.EEXIST, path);
    }
    Caller owner = creatorIn(VPaths.parent(path), caller);
    // a directory made in a set-group-ID directory is set-group-ID too, so the group carries on down the tree
    int setgid = ns.resolve(VPaths.parent(path)).attr().mode() & 02000;
    String dirKey = keys.dirKey(path);
    Instant now = Instant.now();
    FileAttr a = new FileAttr(Inodes.of(dirKey), FileType.DIRECTORY, (mode & 07777) | setgid, owner.uid(), owner.gid(),
        FileAttr.DIRECTORY_SIZE, now, now, now, null);
    WriteMeta meta = PosixMeta.dirMeta(a, Map.of());
    try {
      WriteResult r = store.putObject(dirKey, ContentSource.empty(), meta);
      Node n = ns.fromHead(dirKey, new ObjectInfo(dirKey, 0, r.etag(), now, "Normal", meta.contentType(), meta.userMeta(), -1));
      ns.recordWritten(path, n);
      ns.recordEmptyDirectory(path);
      return n.attr();
    } catch (StoreException e) {
      throw Errors.toIo(e, path);
    }
  }

  @Override
  public void unlink(String path) {
    VPaths.check(path);
    OpenFile open = lockOpenFile(path); // no upload of it may start between the decision below and the unlink
    try {
      Node node = ns.resolve(path);
      if (node.isDirectory()) {
        throw new FsException(Errno.EISDIR, path);
      }
      if (node.origin() != Origin.PENDING) {
        try {
          store.deleteObject(node.objectKey());
        } catch (StoreException e) {
          throw Errors.toIo(e, path);
        }
      }
      openFiles.detach(open); // a new create of the name gets a new file, not this unlinked one
      ns.recordRemoved(path, node.objectKey());
    } finally {
      if (open != null) {
        open.lock.unlock();
      }
    }
  }

  /** The open file of a path, locked, or null when the path has none. */
  private OpenFile lockOpenFile(String path) {
    while (true) {
      OpenFile open = openFiles.get(path);
      if (open == null) {
        return null;
      }
      open.lock.lock();
      if (openFiles.get(path) == open) {
        return open;
      }
      open.lock.unlock(); // replaced meanwhile: lock the current one
    }
  }

  @Override
  public void rmdir(String path) {
    VPaths.check(path);
    if (VPaths.isRoot(path)) {
      throw new FsException(Errno.EBUSY, "cannot remove the mount root");
    }
    Node node = ns.resolve(path);
    if (!node.isDirectory()) {
      throw new FsException(Errno.ENOTDIR, path);
    }
    String dirKey = keys.dirKey(path);
    try {
      ListPage page = store.listObjectsV2(dirKey, "/", null, null, 2);
      for (ListedObject o : page.objects()) {
        if (!o.key().equals(dirKey)) {
          throw new FsException(Errno.ENOTEMPTY, path);
        }
      }
      if (!page.commonPrefixes().isEmpty() || !openFiles.under(path).isEmpty()) {
        throw new FsException(Errno.ENOTEMPTY, path);
      }
      store.deleteObject(node.origin() == Origin.COMPAT_DIR ? node.objectKey() : dirKey);
    } catch (StoreException e) {
      throw Errors.toIo(e, path);
    }
    ns.recordRemoved(path, dirKey);
  }

  @Override
  public void rename(String from, String to) {
    renamer.rename(from, to);
  }

  @Override
  public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) {
    VPaths.check(path);
    Node node = handle != null ? OssHandle.of(handle).file.currentNode() : ns.resolve(path);
    if (changes.size() != null) {
      truncate(path, node, changes.size(), handle, caller);
      node = handle != null ? OssHandle.of(handle).file.currentNode() : ns.resolve(path);
    }
    if (!changes.changesMeta()) {
      return node.attr();
    }
    if (node.origin() == Origin.ROOT) {
      return node.attr(); // the mount root has no object to carry attributes
    }
    OpenFile open = handle != null ? OssHandle.of(handle).file : openFiles.get(path);
    if (open != null && open.hasLocalState()) {
      open.updateAttr(AttrWriter.apply(node.attr(), changes), changes.mtime() != null); // written with the upload
      return open.currentNode().attr();
    }
    if (!node.metaKnown()) {
      // readdir_optimize showed listing defaults: change the object's real attributes, not those (one HEAD, as ossfs
      // re-HEADs its "fake" entries before a change)
      node = ns.lookup(path);
    }
    FileAttr changed = AttrWriter.apply(node.attr(), changes);
    Node written = attrWriter.write(path, node, changed);
    if (open != null) {
      open.attrWritten(written.attr());
    }
    return written.attr();
  }

  private void truncate(String path, Node node, long size, FileHandle handle, Caller caller) {
    if (node.isDirectory()) {
      throw new FsException(Errno.EISDIR, path);
    }
    if (size < 0) {
      throw new FsException(Errno.EINVAL, "negative size");
    }
    if (handle != null) {
      OssHandle.of(handle).file.truncate(size);
      return;
    }
    if (node.attr().size() == size) {
      return;
    }
    FileHandle h = open(path, OpenFlags.READ_WRITE, caller);
    try {
      OssHandle.of(h).file.truncate(size);
      OssHandle.of(h).file.flush(); // truncate(2) on a path is durable when it returns
    } finally {
      release(h);
    }
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    VPaths.check(linkPath);
    if (ns.resolveOrNull(linkPath) != null) {
      throw new FsException(Errno.EEXIST, linkPath);
    }
    Caller owner = creatorIn(VPaths.parent(linkPath), caller);
    String key = keys.fileKey(linkPath);
    Instant now = Instant.now();
    FileAttr a = new FileAttr(Inodes.of(key), FileType.SYMLINK, 0777, owner.uid(), owner.gid(), 0, now, now, now, null);
    byte[] body = target.getBytes(StandardCharsets.UTF_8);
    Map<String, String> extra = config.symlinkInMeta() ? Map.of(PosixMeta.SYMLINK_TARGET, PosixMeta.encodeSymlinkTarget(target)) : Map.of();
    WriteMeta meta = new WriteMeta(WriteMeta.OCTET_STREAM, PosixMeta.encode(a, extra));
    ContentSource content = config.symlinkInMeta() ? ContentSource.empty() : ContentSource.ofBytes(body);
    try {
      WriteResult r = store.putObject(key, content, meta);
      Node n = ns.fromHead(key, new ObjectInfo(key, content.length(), r.etag(), now, "Normal", meta.contentType(),
          meta.userMeta(), -1));
      n = new Node(n.attr(), n.origin(), key, n.objectType(), n.contentType(), n.userMeta(), target, n.lastModified(), -1);
      ns.recordWritten(linkPath, n);
      return n.attr();
    } catch (StoreException e) {
      throw Errors.toIo(e, linkPath);
    }
  }

  @Override
  public FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    VPaths.check(path);
    return specialFiles.mknod(path, type, mode, rdev, creatorIn(VPaths.parent(path), caller));
  }

  @Override
  public FileAttr fgetattr(FileHandle handle) {
    OpenFile f = OssHandle.of(handle).file;
    return f.unlinked() ? f.currentNode().attr().unlinked() : ns.resolve(f.path()).attr();
  }

  @Override
  public boolean savedInMemory(FileHandle handle) {
    return OssHandle.of(handle).file.savedInMemory();
  }

  /** The ETag the open file reads (or last uploaded) against the one the name's cached attributes now show. */
  @Override
  public boolean staleVersion(FileHandle handle) {
    OpenFile f = OssHandle.of(handle).file;
    if (f.unlinked() || f.hasLocalState()) {
      return false; // unsaved data of ours: it is the current version
    }
    String pinned = f.currentNode().attr().etag();
    String now = ns.resolve(f.path()).attr().etag();
    return pinned != null && now != null && !pinned.equals(now);
  }

  @Override
  public String readlink(String path) {
    Node node = ns.resolve(path);
    if (!node.attr().isSymlink()) {
      throw new FsException(Errno.EINVAL, path + " is not a symbolic link");
    }
    if (node.symlinkTarget() != null) {
      return node.symlinkTarget();
    }
    long size = node.attr().size();
    if (size > MAX_SYMLINK) {
      throw new FsException(Errno.EIO, path + ": symlink body too large");
    }
    ByteBuffer buf = ByteBuffer.allocate((int) size);
    try {
      store.getObjectRange(node.objectKey(), 0, buf, null);
    } catch (StoreException e) {
      throw Errors.toFs(e, path);
    }
    String target = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    ns.recordWritten(path, new Node(node.attr(), node.origin(), node.objectKey(), node.objectType(), node.contentType(),
        node.userMeta(), target, node.lastModified(), node.nextAppendPosition()));
    return target;
  }

  @Override
  public FsStats statfs() {
    long bsize = 16L << 20; // ossfs reports 16 MiB blocks and an effectively unlimited capacity
    long blocks = Long.MAX_VALUE / bsize;
    return new FsStats(bsize, blocks, blocks, 1L << 54, 1L << 54, VPaths.NAME_MAX);
  }

  /**
   * Checks that {@code dir} (a new entry's parent) is a directory and says who owns the entry: the caller, with the
   * directory's group instead of the caller's when the directory is set-group-ID (the BSD rule Linux local file systems
   * follow; POSIX leaves the choice to the implementation). Returns {@code caller} itself
   * when nothing changes.
   *
   * @throws FsException ENOTDIR, ENOENT
   */
  private Caller creatorIn(String dir, Caller caller) {
    FileAttr parent = ns.resolve(dir).attr();
    if (!parent.isDirectory()) {
      throw new FsException(Errno.ENOTDIR, dir);
    }
    return (parent.mode() & 02000) != 0 && parent.gid() != caller.gid()
        ? new Caller(caller.uid(), parent.gid(), caller.groups()) : caller;
  }

  /** Engine#invalidate: drops the cached attributes and listings of a path (with tree: and below) and its parent's. */
  void invalidate(String path, boolean tree) {
    if (tree) {
      ns.forgetTree(path);
    } else {
      ns.forget(path);
    }
    if (!VPaths.isRoot(path)) {
      ns.forgetListing(VPaths.parent(path));
    }
  }

  /** Uploads everything still unsaved, then stops the I/O threads and closes the metadata store. */
  @Override
  public void close() {
    for (OpenFile f : openFiles.snapshot()) {
      try {
        f.flush();
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.ERROR, "upload of " + f.path() + " at shutdown failed: " + e.getMessage());
      }
    }
    io.shutdown();
    readers.close();
    metaStore.close();
  }
}
