package io.ossgw.core.engine;

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
import io.ossgw.core.vfs.DirPage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The LIST half of a directory listing ({@link Lister}): one ListObjectsV2 page turned into entries keyed by position
 * ({@code name} for a file, {@code name/} for a directory), each with the attributes the listing, the metadata store
 * or the stat cache already know (a HEAD completes the rest, in {@link Lister}). Names the gateway cannot show are
 * left out here and counted in {@link Hidden} (SEMANTICS.md "Names the gateway cannot show"); a file beside a
 * directory of the same name is settled here when both lie on the page. Requests: one ListObjectsV2 per page (more
 * only while a resumed page holds no key after its start), plus one {@code max-keys=1} ListObjectsV2 or HeadObject
 * for an old-style {@code x_$folder$} object at a page boundary.
 */
final class PageLister {
  private final EngineConfig config;
  private final ObjectStore store;
  private final KeyMapper keys;
  private final PosixMeta posix;
  private final MetadataCache stat;
  private final MetaStore metaStore;

  PageLister(EngineConfig config, ObjectStore store, KeyMapper keys, PosixMeta posix, MetadataCache stat,
      MetaStore metaStore) {
    this.config = config;
    this.store = store;
    this.keys = keys;
    this.posix = posix;
    this.stat = stat;
    this.metaStore = metaStore;
  }

  /**
   * What one ListObjectsV2 page said, before its HEADs: the entries after {@code from} keyed by position, the last
   * position listed, and where the next page starts (null token and {@code eof} at the end).
   */
  record Listed(String from, TreeMap<String, Node> entries, Hidden hidden, String last, String token,
      boolean eof) {
  }

  /**
   * One page's entries after {@code from} (the page {@code token} continues, else the one starting after {@code
   * from}) with what the listing, the stores and the caches know.
   *
   * @throws io.ossgw.core.vfs.FsException from the ListObjectsV2 ({@link Errors#toFs})
   */
  Listed list(Namespace ns, String dirPath, String dirKey, String from, String token) {
    long t0 = stat.now();
    TreeMap<String, Node> entries = new TreeMap<>(DirPage::compare);
    Hidden hidden = new Hidden();
    String last = from;
    boolean eof;
    try {
      do {
        String startAfter = token == null && !from.isEmpty() ? dirKey + from : null;
        ListPage page = store.listObjectsV2(dirKey, "/", token, startAfter, config.listMaxKeys());
        for (ListedObject o : page.objects()) {
          String pos = o.key().substring(dirKey.length());
          last = later(last, pos);
          if (!pos.isEmpty() && DirPage.compare(pos, from) > 0) { // "": the directory's own marker
            addObject(ns, entries, hidden, dirKey, pos, o, t0);
          }
        }
        for (String p : page.commonPrefixes()) {
          String pos = p.substring(dirKey.length());
          last = later(last, pos);
          if (DirPage.compare(pos, from) > 0) { // a resumed page may return the prefix it resumed after
            addPrefix(ns, entries, hidden, dirKey, pos, p);
          }
        }
        token = page.nextContinuationToken();
        eof = !page.truncated() || token == null;
      } while (!eof && last.equals(from));
      resolveClashes(dirPath, dirKey, entries, hidden, from);
    } catch (StoreException e) {
      throw Errors.toFs(e, dirPath);
    }
    return new Listed(from, entries, hidden, last, eof ? null : token, eof);
  }

  private void addObject(Namespace ns, TreeMap<String, Node> entries, Hidden hidden, String dirKey, String pos,
      ListedObject o, long listedAt) {
    if (config.compatDirs() && pos.endsWith(DirState.FOLDER_SUFFIX)) {
      String dn = pos.substring(0, pos.length() - DirState.FOLDER_SUFFIX.length());
      if (validName(dn)) {
        entries.put(pos, ns.implicitDir(dirKey + dn + "/"));
      } else {
        hidden.add("'" + o.key() + "' (" + why(dn) + ")");
      }
      return;
    }
    if (!validName(pos)) {
      hidden.add("'" + o.key() + "' (" + why(pos) + ")");
      return;
    }
    String path = keys.pathOf(o.key());
    Optional<MetadataCache.Entry> cached = stat.get(path);
    if (cached.isPresent() && !cached.get().negative()) {
      Node c = cached.get().node();
      if ((o.etag() != null && o.etag().equalsIgnoreCase(c.attr().etag())) || cached.get().loadedAtNanos() > listedAt) {
        entries.put(pos, c); // same version, or learnt after this LIST began: a listing never overwrites it
        return;
      }
      stat.invalidate(path); // the object changed since it was cached: revalidated by ETag, like ossfs's readdir
    }
    ObjectInfo known = metaStore.validated(o);
    entries.put(pos, known != null ? ns.fromHead(o.key(), known)
        : new Node(posix.fromListing(o), Origin.FILE, o.key(), o.objectType(), null, null, null, o.lastModified(), -1));
  }

  private void addPrefix(Namespace ns, TreeMap<String, Node> entries, Hidden hidden, String dirKey, String pos, String prefix) {
    String name = pos.substring(0, pos.length() - 1);
    if (!validName(name)) {
      hidden.add("objects under '" + prefix + "' (" + why(name) + ")");
      return;
    }
    Optional<MetadataCache.Entry> cached = stat.get(keys.pathOf(prefix));
    if (cached.isPresent() && !cached.get().negative() && cached.get().node().isDirectory()) {
      entries.put(pos, cached.get().node());
      return;
    }
    entries.put(pos, ns.prefixDir(prefix));
  }

  /**
   * One entry per name: a directory ({@code x/}) hides a file {@code x} (ossfs's listings show the directory, and
   * {@code x/child} stays reachable); an old-style {@code x_$folder$} shows only when neither exists. A file whose
   * directory form lies after this page is settled by the next page ({@link Chunk#undecided}); for an old-style
   * directory whose other forms lie before this page, one ListObjectsV2 {@code max-keys=1} or HeadObject asks (only
   * with {@code x_$folder$} objects at a page boundary).
   */
  private void resolveClashes(String dirPath, String dirKey, TreeMap<String, Node> entries, Hidden hidden, String from) {
    List<String> drop = new ArrayList<>();
    for (Map.Entry<String, Node> e : entries.entrySet()) {
      String pos = e.getKey();
      Node n = e.getValue();
      if (pos.endsWith("/")) {
        continue;
      }
      if (n.origin() == Origin.IMPLICIT_DIR && pos.endsWith(DirState.FOLDER_SUFFIX)) {
        String name = DirState.nameOf(pos, n);
        boolean shadowed = entries.containsKey(name + "/") || entries.containsKey(name)
            || (DirPage.compare(name + "/", from) <= 0 && hasChildren(dirKey + name + "/"))
            || (DirPage.compare(name, from) <= 0 && exists(dirKey + name));
        if (shadowed) {
          drop.add(pos);
        }
        continue;
      }
      if (entries.containsKey(pos + "/")) { // beyond this page: Chunk.undecided, settled by the next page
        drop.add(pos);
        hidden.add(hiddenFile(dirKey, pos));
        stat.invalidate(VPaths.child(dirPath, pos)); // a lookup answers from the listing: the directory
      }
    }
    drop.forEach(entries::remove);
  }

  /** Whether anything lies under {@code prefix}: one ListObjectsV2 {@code max-keys=1}. */
  boolean hasChildren(String prefix) {
    ListPage p = store.listObjectsV2(prefix, "/", null, null, 1);
    return !p.objects().isEmpty() || !p.commonPrefixes().isEmpty();
  }

  private boolean exists(String key) {
    try {
      store.headObject(key);
      return true;
    } catch (StoreException e) {
      if (e.isNotFound()) {
        return false;
      }
      throw e;
    }
  }

  static boolean validName(String name) {
    return !name.isEmpty() && name.indexOf('/') < 0 && !".".equals(name) && !"..".equals(name)
        && name.getBytes(StandardCharsets.UTF_8).length <= VPaths.NAME_MAX;
  }

  private static String why(String name) {
    if (name.isEmpty() || name.indexOf('/') >= 0) {
      return "empty path component";
    }
    if (".".equals(name) || "..".equals(name)) {
      return "'" + name + "' is not a name";
    }
    return "name over " + VPaths.NAME_MAX + " bytes";
  }

  private static String later(String a, String b) {
    return DirPage.compare(a, b) >= 0 ? a : b;
  }

  static String hiddenFile(String dirKey, String file) {
    return "file '" + dirKey + file + "' (a directory '" + dirKey + file + "/' has its name and is shown)";
  }

  /** What a page left out, for the once-per-directory log line. */
  static final class Hidden {
    int count;
    final List<String> examples = new ArrayList<>(3);

    void add(String what) {
      count++;
      if (examples.size() < 3) {
        examples.add(what);
      }
    }
  }
}
