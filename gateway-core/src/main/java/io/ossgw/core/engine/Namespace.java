package io.ossgw.core.engine;

import io.ossgw.core.cache.DirCache;
import io.ossgw.core.cache.DirState;
import io.ossgw.core.cache.MetaStore;
import io.ossgw.core.cache.MetadataCache;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.namespace.KeyMapper;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Resolves paths to {@link Node}s and directories to listings, through the caches, with as few OSS requests as
 * possible (SEMANTICS.md gives the costs):
 *
 * <ul>
 *   <li>a path in the stat cache, or in a cached listing of its parent: 0 requests (a name missing from a cached
 *       listing is ENOENT without a request);
 *   <li>a file: 1 HeadObject; a directory: HeadObject (404) + one ListObjectsV2 {@code max-keys=1}, plus a HEAD of the
 *       {@code dir/} marker when there is one; a missing name: the HEAD and the LIST (ossfs needs 3 HEAD + 1 LIST);
 *   <li>a listing: ceil(n / 1000) ListObjectsV2 pages; attributes come from the listing, completed from the
 *       {@link MetaStore} for objects seen before, and from parallel HEADs only for objects whose metadata was never
 *       seen (none with {@code readdir_optimize}).
 * </ul>
 */
final class Namespace {
  private final EngineConfig config;
  private final ObjectStore store;
  private final KeyMapper keys;
  private final PosixMeta posix;
  private final MetadataCache stat;
  private final DirCache dirs;
  private final MetaStore metaStore;
  private final OpenFiles openFiles;
  private final ParallelHeads heads;
  private final Instant started = Instant.now();
  private final AtomicLong verifiers = new AtomicLong(System.nanoTime());

  Namespace(EngineConfig config, ObjectStore store, KeyMapper keys, PosixMeta posix, MetadataCache stat, DirCache dirs,
      MetaStore metaStore, OpenFiles openFiles, ParallelHeads heads) {
    this.config = config;
    this.store = store;
    this.keys = keys;
    this.posix = posix;
    this.stat = stat;
    this.dirs = dirs;
    this.metaStore = metaStore;
    this.openFiles = openFiles;
    this.heads = heads;
  }

  KeyMapper keys() {
    return keys;
  }

  PosixMeta posix() {
    return posix;
  }

  /** The node of the mount root (a directory that always exists). */
  Node root() {
    FileAttr a = posix.implicitDir(keys.prefix(), started);
    int mode = 0777 & ~config.mpUmask();
    a = new FileAttr(io.ossgw.core.meta.Inodes.ROOT, a.type(), mode, a.uid(), a.gid(), a.size(), a.atime(), a.mtime(), a.ctime(), null);
    return new Node(a, Origin.ROOT, null, null, null, null, null, null, -1);
  }

  /**
   * Resolves a path.
   *
   * @throws FsException ENOENT when OSS has no such file or directory, EIO when a request failed
   */
  Node resolve(String path) {
    VPaths.check(path);
    if (VPaths.isRoot(path)) {
      return root();
    }
    Node open = openFiles.nodeOf(path);
    if (open != null) {
      return open;
    }
    Optional<MetadataCache.Entry> hit = stat.get(path);
    if (hit.isPresent()) {
      if (hit.get().negative()) {
        throw new FsException(Errno.ENOENT, path);
      }
      return hit.get().node();
    }
    Optional<DirState> parent = dirs.get(VPaths.parent(path));
    if (parent.isPresent()) {
      Node child = parent.get().children().get(VPaths.name(path));
      if (child == null) {
        throw new FsException(Errno.ENOENT, path);
      }
      return child.metaKnown() ? child : complete(path, child);
    }
    return lookup(path);
  }

  /** Like {@link #resolve} but null instead of ENOENT. */
  Node resolveOrNull(String path) {
    try {
      return resolve(path);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT) {
        return null;
      }
      throw e;
    }
  }

  /** Resolves with OSS requests, skipping the caches (and caches the answer). */
  Node lookup(String path) {
    long t0 = stat.now();
    String fileKey = keys.fileKey(path);
    try {
      Node n = fromHead(fileKey, store.headObject(fileKey));
      stat.putIfNewer(path, n, t0);
      return n;
    } catch (StoreException e) {
      if (!e.isNotFound()) {
        throw Errors.toFs(e, path);
      }
    }
    String dirKey = keys.dirKeyOrNull(path);
    if (dirKey == null) {
      stat.putNegative(path); // a 1,023-byte file key has no room for a directory's slash
      throw new FsException(Errno.ENOENT, path);
    }
    ListPage page;
    try {
      page = store.listObjectsV2(dirKey, "/", null, null, 1);
    } catch (StoreException e) {
      throw Errors.toFs(e, path);
    }
    Node n;
    if (!page.objects().isEmpty() && page.objects().get(0).key().equals(dirKey)) {
      n = markerOrImplicit(dirKey);
    } else if (!page.objects().isEmpty() || !page.commonPrefixes().isEmpty()) {
      n = implicitDir(dirKey);
    } else {
      stat.putNegative(path);
      throw new FsException(Errno.ENOENT, path);
    }
    stat.putIfNewer(path, n, t0);
    return n;
  }

  /** Fills the metadata of a listing node with a HEAD (default mode), or accepts the listing's (readdir_optimize). */
  Node complete(String path, Node listed) {
    if (listed.metaKnown() || (config.readdirOptimize() && !needsHeadWhenOptimized(listed))) {
      return listed;
    }
    long t0 = stat.now();
    Node n = listed.isDirectory() ? markerOrImplicit(keys.dirKey(path)) : headFileOrGone(path, listed);
    stat.putIfNewer(path, n, t0);
    dirs.childChanged(VPaths.parent(path), VPaths.name(path), n);
    return n;
  }

  private boolean needsHeadWhenOptimized(Node listed) {
    return listed.origin() == Origin.PREFIX || listed.attr().size() <= config.readdirCheckSize();
  }

  private Node headFileOrGone(String path, Node listed) {
    try {
      return fromHead(listed.objectKey(), store.headObject(listed.objectKey()));
    } catch (StoreException e) {
      if (e.isNotFound()) {
        dirs.childRemoved(VPaths.parent(path), VPaths.name(path));
        throw new FsException(Errno.ENOENT, path);
      }
      throw Errors.toFs(e, path);
    }
  }

  /**
   * Records metadata learnt from a GET's response headers for a file known only from a listing (the same fields a
   * HEAD returns); returns the node.
   */
  Node learned(String path, String key, ObjectInfo info) {
    long t0 = stat.now();
    Node n = fromHead(key, info);
    stat.putIfNewer(path, n, t0);
    dirs.childChanged(VPaths.parent(path), VPaths.name(path), n);
    return n;
  }

  /** HEAD of a {@code dir/} marker; an implicit directory when there is none. */
  Node markerOrImplicit(String dirKey) {
    try {
      return fromHead(dirKey, store.headObject(dirKey));
    } catch (StoreException e) {
      if (e.isNotFound()) {
        return implicitDir(dirKey);
      }
      throw Errors.toFs(e, keys.pathOf(dirKey));
    }
  }

  Node implicitDir(String dirKey) {
    return new Node(posix.implicitDir(dirKey, started), Origin.IMPLICIT_DIR, null, null, null, null, null, null, -1);
  }

  /** A node from a HEAD result (also remembered in the persistent metadata store). */
  Node fromHead(String key, ObjectInfo info) {
    metaStore.remember(info);
    FileAttr a = posix.fromHead(key, info);
    Origin origin = key.endsWith("/") ? Origin.DIR_MARKER : a.isDirectory() ? Origin.COMPAT_DIR : Origin.FILE;
    String target = a.isSymlink() ? PosixMeta.decodeSymlinkTarget(info.userMeta().get(PosixMeta.SYMLINK_TARGET)) : null;
    return new Node(a, origin, key, info.objectType(), info.contentType(), info.userMeta(), target, info.lastModified(),
        info.nextAppendPosition());
  }

  /**
   * The listing of a directory, from the cache or from ListObjectsV2 pages (then completed as the class comment says).
   *
   * @throws FsException ENOENT, ENOTDIR, EIO
   */
  DirState list(String dirPath) {
    Optional<DirState> cached = dirs.get(dirPath);
    if (cached.isPresent()) {
      return cached.get();
    }
    Node dir = resolve(dirPath);
    if (!dir.isDirectory()) {
      throw new FsException(Errno.ENOTDIR, dirPath);
    }
    long t0 = stat.now();
    String dirKey = keys.dirKey(dirPath);
    Map<String, Node> children = new LinkedHashMap<>();
    String token = null;
    try {
      do {
        ListPage page = store.listObjectsV2(dirKey, "/", token, null, config.listMaxKeys());
        for (ListedObject o : page.objects()) {
          addObject(children, dirKey, o, t0);
        }
        for (String p : page.commonPrefixes()) {
          addPrefix(children, dirKey, p);
        }
        token = page.nextContinuationToken();
      } while (token != null);
    } catch (StoreException e) {
      throw Errors.toFs(e, dirPath);
    }
    heads.completeAll(dirPath, children, this);
    openFiles.addPendingChildren(dirPath, children);
    DirState state = new DirState(children, t0, verifiers.incrementAndGet());
    dirs.put(dirPath, state);
    return state;
  }

  private void addObject(Map<String, Node> children, String dirKey, ListedObject o, long listedAt) {
    if (o.key().equals(dirKey)) {
      return; // the directory's own marker
    }
    String name = o.key().substring(dirKey.length());
    if (config.compatDirs() && name.endsWith("_$folder$")) {
      String dn = name.substring(0, name.length() - "_$folder$".length());
      if (validName(dn)) {
        children.putIfAbsent(dn, implicitDir(dirKey + dn + "/"));
      }
      return;
    }
    if (!validName(name)) {
      return;
    }
    String path = keys.pathOf(o.key());
    Optional<MetadataCache.Entry> cached = stat.get(path);
    if (cached.isPresent() && !cached.get().negative()) {
      Node c = cached.get().node();
      if ((o.etag() != null && o.etag().equalsIgnoreCase(c.attr().etag())) || cached.get().loadedAtNanos() > listedAt) {
        children.put(name, c); // same version, or learnt after this LIST began: a listing never overwrites it
        return;
      }
      stat.invalidate(path); // the object changed since it was cached: revalidated by ETag, like ossfs's readdir
    }
    ObjectInfo known = metaStore.validated(o);
    children.put(name, known != null ? fromHead(o.key(), known)
        : new Node(posix.fromListing(o), Origin.FILE, o.key(), o.objectType(), null, null, null, o.lastModified(), -1));
  }

  private void addPrefix(Map<String, Node> children, String dirKey, String prefix) {
    String name = prefix.substring(dirKey.length(), prefix.length() - 1);
    if (!validName(name) || children.containsKey(name)) {
      return; // a file and a directory with one name: the file shows, as in ossfs
    }
    Optional<MetadataCache.Entry> cached = stat.get(keys.pathOf(prefix));
    if (cached.isPresent() && !cached.get().negative() && cached.get().node().isDirectory()) {
      children.put(name, cached.get().node());
      return;
    }
    FileAttr a = posix.implicitDir(prefix, started);
    children.put(name, new Node(a, Origin.PREFIX, prefix, null, null, null, null, null, -1));
  }

  private static boolean validName(String name) {
    return !name.isEmpty() && name.indexOf('/') < 0 && !".".equals(name) && !"..".equals(name)
        && name.getBytes(StandardCharsets.UTF_8).length <= VPaths.NAME_MAX;
  }

  /** Records our own write, mkdir, copy or metadata change: caches, the parent's listing, the metadata store. */
  void recordWritten(String path, Node node) {
    stat.put(path, node);
    dirs.childChanged(VPaths.parent(path), VPaths.name(path), node);
    if (node.objectKey() != null && node.userMeta() != null && node.attr().etag() != null) {
      metaStore.remember(new ObjectInfo(node.objectKey(), node.isDirectory() ? 0 : node.attr().size(), node.attr().etag(),
          node.lastModified(), node.objectType(), node.contentType(), node.userMeta(), node.nextAppendPosition()));
    }
  }

  /** Records that a directory we just created is empty, so lookups inside it need no request. */
  void recordEmptyDirectory(String path) {
    dirs.put(path, new DirState(Map.of(), stat.now(), verifiers.incrementAndGet()));
  }

  /** Records that a path no longer exists. */
  void recordRemoved(String path, String key) {
    stat.invalidate(path);
    stat.putNegative(path);
    dirs.childRemoved(VPaths.parent(path), VPaths.name(path));
    dirs.invalidate(path);
    if (key != null) {
      metaStore.forget(key);
    }
  }

  /** Drops everything cached at or below a path (directory rename, external change suspected). */
  void forgetTree(String path) {
    stat.invalidateTree(path);
    dirs.invalidateTree(path);
  }

  /** Drops the cached attributes of one path and, if it is a directory, its listing (no negative entry). */
  void forget(String path) {
    stat.invalidate(path);
    dirs.invalidate(path);
  }

  /** Drops one directory's cached listing (its children's attributes stay cached). */
  void forgetListing(String dirPath) {
    dirs.invalidate(dirPath);
  }

  /** The cached listing of a directory, if any (no request). */
  Optional<DirState> cachedListing(String dirPath) {
    return dirs.get(dirPath);
  }
}
