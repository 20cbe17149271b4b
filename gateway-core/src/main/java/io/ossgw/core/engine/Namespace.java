package io.ossgw.core.engine;

import io.ossgw.core.cache.DirCache;
import io.ossgw.core.cache.DirState;
import io.ossgw.core.cache.ListingWindow;
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
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves paths to {@link Node}s and directories to listings, through the caches, with as few OSS requests as
 * possible (SEMANTICS.md gives the costs):
 *
 * <ul>
 *   <li>a path in the stat cache, or in a cached listing of its parent: 0 requests (a name missing from a cached
 *       listing is ENOENT without a request);
 *   <li>a file: 1 HeadObject; a directory: HeadObject (404) + one ListObjectsV2 {@code max-keys=1}, plus a HEAD of the
 *       {@code dir/} marker when there is one; a missing name: the HEAD and the LIST (ossfs needs 3 HEAD + 1 LIST);
 *       a missing name about to be created ({@link #resolveNew}): one ListObjectsV2;
 *   <li>the second missing name in a directory within the TTL: a listing of the directory for lookups (up to {@value
 *       Lister#LOOKUP_PAGES} pages, {@link #listForLookups}), which answers the next names for 5 s without a request;
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
  private final ListingWindow window;
  private final Lister lister;
  private final Instant started = Instant.now();
  /** Directory -> the listing {@link #listForLookups} is fetching for it (one at a time per directory). */
  private final ConcurrentHashMap<String, CompletableFuture<DirState>> lookupListings = new ConcurrentHashMap<>();
  /** The mount root's node: made once (every path resolved from the root asked for it, a SHA-256 each time). */
  private final Node root;

  Namespace(EngineConfig config, ObjectStore store, KeyMapper keys, PosixMeta posix, MetadataCache stat, DirCache dirs,
      ListingWindow window, long wholeDirBytes, MetaStore metaStore, OpenFiles openFiles, ParallelHeads heads) {
    this.config = config;
    this.store = store;
    this.keys = keys;
    this.posix = posix;
    this.stat = stat;
    this.dirs = dirs;
    this.window = window;
    this.metaStore = metaStore;
    this.openFiles = openFiles;
    this.lister = new Lister(config, store, keys, posix, stat, dirs, window, wholeDirBytes, metaStore, openFiles, heads);
    FileAttr a = posix.implicitDir(keys.prefix(), started);
    int mode = 0777 & ~config.mpUmask();
    a = new FileAttr(io.ossgw.core.meta.Inodes.ROOT, a.type(), mode, a.uid(), a.gid(), a.size(), a.atime(), a.mtime(),
        a.ctime(), null);
    this.root = new Node(a, Origin.ROOT, null, null, null, null, null, null, -1);
  }

  KeyMapper keys() {
    return keys;
  }

  PosixMeta posix() {
    return posix;
  }

  /** The node of the mount root (a directory that always exists). */
  Node root() {
    return root;
  }

  /**
   * Resolves a path.
   *
   * @throws FsException ENOENT when OSS has no such file or directory, EIO when a request failed
   */
  Node resolve(String path) {
    return resolve(path, false);
  }

  /**
   * Resolves a name its caller is about to create ({@link #lookupNew}): the same answer as {@link #resolve}, in one
   * ListObjectsV2 instead of two requests when nothing is there.
   *
   * @throws FsException ENOENT when OSS has no such file or directory, EIO when a request failed
   */
  Node resolveNew(String path) {
    return resolve(path, true);
  }

  private Node resolve(String path, boolean expectAbsent) {
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
    String parentPath = VPaths.parent(path);
    Optional<DirState> parent = dirs.get(parentPath);
    if (parent.isPresent()) {
      parent.get().answered();
      Node child = parent.get().child(VPaths.name(path));
      if (child == null) {
        throw new FsException(Errno.ENOENT, path);
      }
      return child.metaKnown() ? child : complete(path, child);
    }
    if (dirs.enabled()) {
      // a directory too big to keep whole: the listing pages the window still holds answer for their names
      ListingWindow.Found f = window.find(parentPath, VPaths.name(path), config.compatDirs());
      if (f instanceof ListingWindow.Present p) {
        return p.node().metaKnown() ? p.node() : complete(path, p.node());
      }
      if (f instanceof ListingWindow.Absent) {
        throw new FsException(Errno.ENOENT, path);
      }
    }
    DirState listed = listForLookups(parentPath);
    if (listed != null) {
      return fromListing(path, listed);
    }
    return expectAbsent ? lookupNew(path) : lookup(path);
  }

  /**
   * After a name was found missing in a directory, the next lookup there that no cache answers lists the directory
   * instead of asking for its own name (SEMANTICS.md "Caches"): up to {@value Lister#LOOKUP_PAGES} ListObjectsV2
   * pages, cached for at most 5 s ({@link DirCache#LOOKUPS_TTL}) when the directory fits in them, so the names
   * missing after it (a batch of files created in an existing directory) cost no request. Null, and the lookup asks for
   * its name, when no name was found missing there within the TTL, listings are not cached, "no such file" answers may
   * not be ({@code disable_noobj_cache}), or the directory's last such listing did not pay off: it held more than
   * {@value Lister#LOOKUP_PAGES} pages, or answered fewer lookups than it cost pages ({@link
   * DirCache#worthListingForLookups}). Lookups that miss in the same directory at once wait for one listing.
   *
   * @throws FsException EIO when the ListObjectsV2 failed
   */
  private DirState listForLookups(String dirPath) {
    if (!dirs.enabled() || !config.negativeCache() || !dirs.missedIn(dirPath)
        || !dirs.worthListingForLookups(dirPath)) {
      return null;
    }
    CompletableFuture<DirState> mine = new CompletableFuture<>();
    CompletableFuture<DirState> running = lookupListings.putIfAbsent(dirPath, mine);
    if (running != null) {
      try {
        DirState listed = running.join();
        if (listed != null) {
          listed.answered();
        }
        return listed;
      } catch (CompletionException | CancellationException e) {
        return null; // its lister reports the failure; this lookup asks for its own name
      }
    }
    try {
      // a listing that ended between this lookup's look at the cache and now is cached: no second one
      Optional<DirState> ready = dirs.get(dirPath);
      ready.ifPresent(DirState::answered);
      DirState listed = ready.isPresent() ? ready.get() : lister.listForLookups(this, dirPath); // counts this lookup
      mine.complete(listed);
      return listed;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      lookupListings.remove(dirPath, mine);
    }
  }

  /** A name answered from its parent's listing, as {@link #resolve} answers from a cached one. */
  private Node fromListing(String path, DirState listed) {
    Node child = listed.child(VPaths.name(path));
    if (child == null) {
      throw new FsException(Errno.ENOENT, path);
    }
    return child.metaKnown() ? child : complete(path, child);
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
      return missing(path);
    }
    stat.putIfNewer(path, n, t0);
    return n;
  }

  /** A name OSS does not have: cached as missing, and its directory noted for {@link #listForLookups}; ENOENT. */
  private Node missing(String path) {
    stat.putNegative(path);
    dirs.recordMiss(VPaths.parent(path));
    throw new FsException(Errno.ENOENT, path);
  }

  /**
   * Resolves with OSS requests a name expected not to exist (the target of a create), listing before any HEAD: one
   * ListObjectsV2 with the file key as prefix, {@code /} as delimiter and {@value #NEW_NAME_KEYS} keys answers in one
   * request what {@link #lookup} needs a HeadObject 404 and a ListObjectsV2 for. Keys sort byte-wise, and every key
   * under that prefix is the name itself, a longer name, or (rolled into the common prefix {@code name/}) the
   * directory's; so the page settles the directory when it is complete or reaches past {@code name/} (a key whose
   * next character sorts after {@code /}), and the file when it starts with the name. Then:
   *
   * <ul>
   *   <li>nothing there: ENOENT (cached as {@link #lookup} caches it), 1 request;
   *   <li>a directory (its common prefix): the directory, as a listing shows it (a file {@code x} beside {@code x/} is
   *       hidden by the directory, SEMANTICS.md "Names"), plus the HEAD of its marker;
   *   <li>a file, or a page that settles nothing (more than {@value #NEW_NAME_KEYS} longer names sort before
   *       {@code name/}): {@link #lookup}, whose HEAD gives the file's metadata.
   * </ul>
   *
   * @throws FsException ENOENT, EIO when a request failed
   */
  Node lookupNew(String path) {
    String dirKey = keys.dirKeyOrNull(path);
    if (dirKey == null) {
      return lookup(path); // no directory can have this name: the HEAD alone answers
    }
    long t0 = stat.now();
    String fileKey = keys.fileKey(path);
    ListPage page;
    try {
      page = store.listObjectsV2(fileKey, "/", null, null, NEW_NAME_KEYS);
    } catch (StoreException e) {
      throw Errors.toFs(e, path);
    }
    if (page.commonPrefixes().contains(dirKey)) {
      Node n = markerOrImplicit(dirKey);
      stat.putIfNewer(path, n, t0);
      return n;
    }
    boolean file = !page.objects().isEmpty() && page.objects().get(0).key().equals(fileKey);
    if (file || !settled(page, fileKey)) {
      return lookup(path);
    }
    return missing(path);
  }

  /** Keys a {@link #lookupNew} asks for: enough for a few longer names ({@code x.bak}, {@code x-1}) before {@code x/}. */
  static final int NEW_NAME_KEYS = 8;

  /** Whether a page of keys under {@code fileKey} tells for sure if {@code fileKey + "/"} is among them. */
  private static boolean settled(ListPage page, String fileKey) {
    if (!page.truncated()) {
      return true;
    }
    int at = fileKey.length();
    for (ListedObject o : page.objects()) {
      if (o.key().length() > at && o.key().charAt(at) > '/') {
        return true;
      }
    }
    for (String p : page.commonPrefixes()) {
      if (p.length() > at && p.charAt(at) > '/') {
        return true;
      }
    }
    return false;
  }

  /** Whether {@link #complete} would send a request for this listing node. */
  boolean needsHead(Node listed) {
    return !listed.metaKnown() && !(config.readdirOptimize() && !needsHeadWhenOptimized(listed));
  }

  /** Fills the metadata of a listing node with a HEAD (default mode), or accepts the listing's (readdir_optimize). */
  Node complete(String path, Node listed) {
    if (!needsHead(listed)) {
      return listed;
    }
    long t0 = stat.now();
    Node n = listed.isDirectory() ? markerOrImplicit(keys.dirKey(path)) : headFileOrGone(path, listed);
    stat.putIfNewer(path, n, t0);
    listingChanged(path, n);
    return n;
  }

  /** Records a child's new node in its parent's cached listing or listing pages. */
  private void listingChanged(String path, Node n) {
    String parent = VPaths.parent(path);
    String name = VPaths.name(path);
    dirs.childChanged(parent, name, n);
    window.childChanged(parent, name, n);
  }

  private void listingRemoved(String path) {
    String parent = VPaths.parent(path);
    String name = VPaths.name(path);
    dirs.childRemoved(parent, name);
    window.childRemoved(parent, name);
  }

  private boolean needsHeadWhenOptimized(Node listed) {
    return listed.origin() == Origin.PREFIX || listed.attr().size() <= config.readdirCheckSize();
  }

  private Node headFileOrGone(String path, Node listed) {
    try {
      return fromHead(listed.objectKey(), store.headObject(listed.objectKey()));
    } catch (StoreException e) {
      if (e.isNotFound()) {
        listingRemoved(path);
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
    listingChanged(path, n);
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

  /** A directory known only as a listing's common prefix (its marker, if any, not yet read). */
  Node prefixDir(String prefix) {
    return new Node(posix.implicitDir(prefix, started), Origin.PREFIX, prefix, null, null, null, null, null, -1);
  }

  /** A node from a HEAD result (also remembered in the persistent metadata store). */
  Node fromHead(String key, ObjectInfo info) {
    metaStore.remember(info);
    FileAttr a = posix.fromHead(key, info);
    Origin origin = key.endsWith("/") ? Origin.DIR_MARKER : a.isDirectory() ? Origin.COMPAT_DIR : Origin.FILE;
    String target = a.isSymlink() ? PosixMeta.decodeSymlinkTarget(info.userMeta().get(PosixMeta.SYMLINK_TARGET)) : null;
    return new Node(a, origin, key, info.objectType(), info.contentType(), PosixMeta.compact(info.userMeta()), target,
        info.lastModified(), info.nextAppendPosition());
  }

  /**
   * One page of a directory's listing ({@link Lister#page}).
   *
   * @throws FsException ENOENT, ENOTDIR, EIO
   */
  DirPage page(String dirPath, String after, int max) {
    return lister.page(this, dirPath, after, max);
  }

  /** Records our own write, mkdir, copy or metadata change: caches, the parent's listing, the metadata store. */
  void recordWritten(String path, Node node) {
    stat.put(path, node);
    listingChanged(path, node);
    if (node.objectKey() != null && node.userMeta() != null && node.attr().etag() != null) {
      metaStore.remember(new ObjectInfo(node.objectKey(), node.isDirectory() ? 0 : node.attr().size(), node.attr().etag(),
          node.lastModified(), node.objectType(), node.contentType(), node.userMeta(), node.nextAppendPosition()));
    }
  }

  /** Records that a directory we just created is empty, so lookups inside it need no request. */
  void recordEmptyDirectory(String path) {
    window.invalidate(path);
    dirs.put(path, new DirState(Map.of(), stat.now()));
  }

  /** Records that a path no longer exists. */
  void recordRemoved(String path, String key) {
    stat.invalidate(path);
    stat.putNegative(path);
    listingRemoved(path);
    dirs.invalidate(path);
    window.invalidate(path);
    if (key != null) {
      metaStore.forget(key);
    }
  }

  /** Drops everything cached at or below a path (directory rename, external change suspected). */
  void forgetTree(String path) {
    stat.invalidateTree(path);
    dirs.invalidateTree(path);
    window.invalidateTree(path);
  }

  /** Drops the cached attributes of one path and, if it is a directory, its listing (no negative entry). */
  void forget(String path) {
    stat.invalidate(path);
    dirs.invalidate(path);
  }

  /** Drops one directory's cached listing (its children's attributes stay cached). */
  void forgetListing(String dirPath) {
    dirs.invalidate(dirPath);
    window.invalidate(dirPath);
  }
}
