package io.ossgw.core.engine;

import com.github.benmanes.caffeine.cache.Cache;
import io.ossgw.core.cache.Caches;
import io.ossgw.core.cache.DirCache;
import io.ossgw.core.cache.DirState;
import io.ossgw.core.cache.ListingWindow;
import io.ossgw.core.cache.ListingWindow.Chunk;
import io.ossgw.core.cache.LookupTally;
import io.ossgw.core.cache.MetaStore;
import io.ossgw.core.cache.MetadataCache;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.meta.PosixMeta;
import io.ossgw.core.namespace.KeyMapper;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Directory listings, page by page (issue 21): {@link #page} answers a paged readdir from the cached whole listing of
 * a directory small enough to keep ({@link DirCache}), else from the {@link ListingWindow} of ListObjectsV2 pages of a
 * big one, fetching the page that follows with the continuation token (or, after the window dropped it, with {@code
 * start-after} the resume position). Nothing holds a big directory whole: memory follows the window, not the directory.
 *
 * <p>Requests: ceil(n / 1000) ListObjectsV2 pages per listing of n entries (the first listing of a directory tries to
 * keep it whole and stops fetching once it weighs more than its share, handing the pages fetched so far to the window,
 * so a big directory costs no extra page), plus the HEADs of {@link ParallelHeads} for objects whose metadata was never
 * seen (none with {@code readdir_optimize}), one page at a time.
 *
 * <p>Names the gateway cannot show (SEMANTICS.md "Names the gateway cannot show") are left out and logged once per
 * directory: empty components ({@code a//b}), {@code .} and {@code ..}, components over 255 bytes, and a file {@code x}
 * beside a directory {@code x/} (the directory wins, as in ossfs's listings, so {@code x/child} stays reachable).
 */
final class Lister {
  private static final System.Logger LOG = System.getLogger(Lister.class.getName());

  private final KeyMapper keys;
  private final MetadataCache stat;
  private final DirCache dirs;
  private final ListingWindow window;
  private final long wholeDirBytes;
  private final OpenFiles openFiles;
  private final ParallelHeads heads;
  private final PageLister pages;
  private final Cache<String, Boolean> logged = Caches.newBuilder().maximumSize(10_000).build();

  Lister(EngineConfig config, ObjectStore store, KeyMapper keys, PosixMeta posix, MetadataCache stat, DirCache dirs,
      ListingWindow window, long wholeDirBytes, MetaStore metaStore, OpenFiles openFiles, ParallelHeads heads) {
    this.keys = keys;
    this.stat = stat;
    this.dirs = dirs;
    this.window = window;
    this.wholeDirBytes = wholeDirBytes;
    this.openFiles = openFiles;
    this.heads = heads;
    this.pages = new PageLister(config, store, keys, posix, stat, metaStore);
  }

  /**
   * One page of a directory listing ({@link io.ossgw.core.vfs.VirtualFileSystem#readdir(String, String, int)}).
   *
   * @throws FsException ENOENT, ENOTDIR (checked when a listing starts), EIO
   */
  DirPage page(Namespace ns, String dirPath, String after, int max) {
    Optional<DirState> cached = dirs.get(dirPath);
    if (cached.isPresent() && !cached.get().forLookups()) { // a lookups' listing lacks the HEADs: listed again
      return fromState(dirPath, cached.get(), after, max);
    }
    if (after == null) {
      Node dir = ns.resolve(dirPath);
      if (!dir.isDirectory() && !directoryBeside(dirPath)) {
        throw new FsException(Errno.ENOTDIR, dirPath);
      }
      if (dirs.enabled() && window.covering(dirPath, "") == null) { // else known big: its pages are at hand
        DirCache.Load load = dirs.begin(dirPath);
        DirState whole;
        try {
          whole = listWhole(ns, dirPath);
        } catch (RuntimeException e) {
          dirs.abandon(load);
          throw e;
        }
        if (whole != null) {
          return fromState(dirPath, dirs.finish(load, whole), null, max);
        }
        dirs.abandon(load);
      }
    }
    return stream(ns, dirPath, after == null ? "" : after, max);
  }

  private DirPage fromState(String dirPath, DirState s, String after, int max) {
    NavigableMap<String, Node> tail = after == null ? s.children() : s.children().tailMap(after, false);
    List<DirEntry> out = new ArrayList<>(Math.min(max, Math.max(tail.size(), 1)));
    Iterator<Map.Entry<String, Node>> it = tail.entrySet().iterator();
    while (out.size() < max && it.hasNext()) {
      Map.Entry<String, Node> e = it.next();
      out.add(entry(dirPath, e.getKey(), e.getValue()));
    }
    return new DirPage(out, !it.hasNext());
  }

  private DirPage stream(Namespace ns, String dirPath, String after, int max) {
    String dirKey = keys.dirKey(dirPath);
    List<DirEntry> out = new ArrayList<>(Math.min(max, 1024));
    String pos = after;
    Chunk c = window.covering(dirPath, pos);
    if (c == null) {
      c = fetchInto(ns, dirPath, dirKey, pos, null);
    }
    while (true) {
      int i = c.firstAfter(pos);
      for (; i < c.size() && out.size() < max; i++) {
        if (c.undecided(i) && hiddenByNextPage(ns, dirPath, dirKey, c, c.position(i))) {
          continue;
        }
        out.add(entry(dirPath, c.position(i), c.node(i)));
      }
      if (i < c.size()) {
        return new DirPage(out, false);
      }
      if (c.eof()) {
        return new DirPage(out, true);
      }
      if (out.size() >= max) {
        return new DirPage(out, false);
      }
      pos = c.to();
      Chunk next = window.covering(dirPath, pos);
      c = next != null ? next : fetchInto(ns, dirPath, dirKey, pos, c.nextToken());
    }
  }

  /**
   * Whether a directory {@code x/} hides the file {@code x} at the end of chunk {@code c}: the next page (which the
   * listing needs anyway) holds {@code x/} if it exists, unless {@code x/} lies beyond that page too (only when a
   * whole page of names starts with {@code x} and a character below {@code '/'}), which one ListObjectsV2 asks.
   */
  private boolean hiddenByNextPage(Namespace ns, String dirPath, String dirKey, Chunk c, String file) {
    Chunk next = window.covering(dirPath, c.to());
    if (next == null) {
      next = fetchInto(ns, dirPath, dirKey, c.to(), c.nextToken());
    }
    String dir = file + "/";
    if (next.spans(dir)) {
      return next.indexOf(dir) >= 0;
    }
    try {
      return pages.hasChildren(dirKey + dir);
    } catch (StoreException e) {
      throw Errors.toFs(e, dirPath);
    }
  }

  private Chunk fetchInto(Namespace ns, String dirPath, String dirKey, String from, String token) {
    Chunk c = fetch(ns, dirPath, dirKey, from, token);
    window.put(dirPath, c);
    return c;
  }

  /**
   * The whole listing of a directory if it weighs at most its share, else null once it is known to weigh more; the
   * pages fetched until then go to the window, where the paged readdir continues from them.
   */
  private DirState listWhole(Namespace ns, String dirPath) {
    String dirKey = keys.dirKey(dirPath);
    long t0 = stat.now();
    List<Chunk> got = new ArrayList<>();
    long weight = 0;
    PageLister.Listed l = pages.list(ns, dirPath, dirKey, "", null);
    while (true) {
      // The next page's LIST runs while this page's HEADs do: a cold listing of n entries waits for one LIST, not
      // ceil(n / 1000) of them one after the other (docs/benchmarks.md "Cold ls -l by default (issue 22 item 4)").
      Future<PageLister.Listed> ahead = l.eof() ? null : listAhead(ns, dirPath, dirKey, l);
      Chunk c;
      try {
        c = complete(ns, dirPath, l);
      } catch (RuntimeException e) {
        if (ahead != null) {
          ahead.cancel(true);
        }
        throw e;
      }
      got.add(c);
      weight += c.weight();
      if (ahead == null) {
        break;
      }
      l = await(ahead, dirPath);
      if (weight > wholeDirBytes) {
        got.add(complete(ns, dirPath, l)); // the page listed ahead is the paged readdir's next: no LIST is wasted
        for (int i = got.size() - 1; i >= 0; i--) {
          window.put(dirPath, got.get(i)); // the first page last: the most recently used, the last one evicted
        }
        return null;
      }
    }
    Map<String, Node> all = new HashMap<>();
    for (Chunk c : got) {
      for (int i = 0; i < c.size(); i++) {
        all.put(c.position(i), c.node(i));
      }
    }
    PageLister.Hidden hidden = new PageLister.Hidden();
    for (Chunk c : got) {
      for (String file : c.undecidedFiles()) { // a file at the end of a page, and its directory on the next
        if (all.containsKey(file + "/")) {
          all.remove(file);
          hidden.add(PageLister.hiddenFile(dirKey, file));
          stat.invalidate(VPaths.child(dirPath, file));
        }
      }
    }
    logHidden(dirPath, hidden);
    return new DirState(all, t0);
  }

  /** The most ListObjectsV2 pages {@link #listForLookups} reads before it calls a directory too big. */
  static final int LOOKUP_PAGES = 4;

  /**
   * The listing of a directory in at most {@value #LOOKUP_PAGES} ListObjectsV2 pages, made to answer lookups ({@link
   * DirState#forLookups}: no HEADs), cached as such, its cost recorded ({@link DirCache#recordLookupsListing}); null
   * when the directory holds more, which is then recorded as not worth listing for the TTL and the pages dropped. A
   * file {@code x} and a directory {@code x/} on different pages both enter it: {@link DirState#child} answers with the
   * directory, as a readdir shows it.
   *
   * @throws FsException from the ListObjectsV2 ({@link Errors#toFs})
   */
  DirState listForLookups(Namespace ns, String dirPath) {
    long t0 = stat.now();
    String dirKey = keys.dirKey(dirPath);
    DirCache.Load load = dirs.begin(dirPath);
    Map<String, Node> all = new HashMap<>();
    int n = 1;
    try {
      PageLister.Listed l = pages.list(ns, dirPath, dirKey, "", null);
      all.putAll(l.entries());
      for (; !l.eof() && n < LOOKUP_PAGES; n++) {
        l = pages.list(ns, dirPath, dirKey, l.last(), l.token());
        all.putAll(l.entries());
      }
      if (!l.eof()) {
        dirs.abandon(load);
        dirs.recordLookupsListing(dirPath, new LookupTally(n + 1)); // answers nothing: never pays off
        return null;
      }
    } catch (RuntimeException e) {
      dirs.abandon(load);
      throw e;
    }
    LookupTally tally = new LookupTally(n);
    DirState listed = dirs.finish(load, DirState.forLookups(all, t0, tally));
    dirs.recordLookupsListing(dirPath, tally); // after the listing is cached: a lookup that finds it uses it
    return listed;
  }

  /** Starts the LIST of the page after {@code l} on the engine's I/O executor. */
  private Future<PageLister.Listed> listAhead(Namespace ns, String dirPath, String dirKey, PageLister.Listed l) {
    return heads.executor().submit(() -> pages.list(ns, dirPath, dirKey, l.last(), l.token()));
  }

  /** The page {@link #listAhead} listed; its FsException as thrown, anything else as EIO. */
  private static PageLister.Listed await(Future<PageLister.Listed> ahead, String dirPath) {
    try {
      return ahead.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new FsException(Errno.EIO, dirPath + ": " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ahead.cancel(true);
      throw new FsException(Errno.EIO, "interrupted listing " + dirPath, e);
    }
  }

  private DirEntry entry(String dirPath, String position, Node node) {
    String name = DirState.nameOf(position, node);
    Node local = openFiles.nodeOf(VPaths.child(dirPath, name));
    return new DirEntry(name, (local != null ? local : node).attr(), position);
  }

  /**
   * One chunk: the entries of one ListObjectsV2 page after {@code from} (more pages only while they hold no key at
   * all), each with its attributes from the listing, the metadata store, the stat cache or a HEAD.
   */
  Chunk fetch(Namespace ns, String dirPath, String dirKey, String from, String token) {
    return complete(ns, dirPath, pages.list(ns, dirPath, dirKey, from, token));
  }

  /** The HEAD half of {@link #fetch}: completes a listed page's unknown entries and adds the files being written. */
  private Chunk complete(Namespace ns, String dirPath, PageLister.Listed l) {
    String from = l.from();
    String last = l.last();
    boolean eof = l.eof();
    String[] positions = l.entries().keySet().toArray(new String[0]);
    Node[] nodes = l.entries().values().toArray(new Node[0]);
    String[] names = new String[positions.length];
    for (int i = 0; i < positions.length; i++) {
      names[i] = DirState.nameOf(positions[i], nodes[i]);
    }
    heads.completeAll(dirPath, names, nodes, ns);
    List<Map.Entry<String, Node>> pending = openFiles.pendingIn(dirPath);
    if (!pending.isEmpty() || hasNull(nodes)) {
      TreeMap<String, Node> kept = new TreeMap<>(DirPage::compare);
      for (int i = 0; i < positions.length; i++) {
        if (nodes[i] != null) {
          kept.put(positions[i], nodes[i]);
        }
      }
      for (Map.Entry<String, Node> p : pending) {
        String pos = DirState.positionOf(p.getKey(), p.getValue());
        if (DirPage.compare(pos, from) > 0 && (eof || DirPage.compare(pos, last) <= 0)) {
          kept.put(pos, p.getValue()); // a file being written and not yet in OSS (or newer here than there)
        }
      }
      positions = kept.keySet().toArray(new String[0]);
      nodes = kept.values().toArray(new Node[0]);
    }
    logHidden(dirPath, l.hidden());
    List<String> undecided = new ArrayList<>(1);
    if (!eof) {
      for (int i = 0; i < positions.length; i++) {
        if (!positions[i].endsWith("/") && nodes[i].origin() != Origin.IMPLICIT_DIR
            && DirPage.compare(positions[i] + "/", last) > 0) {
          undecided.add(positions[i]);
        }
      }
    }
    return new Chunk(from, last, positions, nodes, l.token(), eof, undecided.toArray(new String[0]));
  }

  private void logHidden(String dirPath, PageLister.Hidden hidden) {
    if (hidden.count > 0 && logged.asMap().putIfAbsent(dirPath, Boolean.TRUE) == null) {
      LOG.log(System.Logger.Level.WARNING, "directory " + dirPath + ": " + hidden.count + " object name(s) cannot be"
          + " shown and are left out of its listing (SEMANTICS.md \"Names the gateway cannot show\"), e.g. "
          + String.join("; ", hidden.examples) + (hidden.count > hidden.examples.size() ? "; ..." : "")
          + " (logged once per directory)");
    }
  }

  private static boolean hasNull(Node[] nodes) {
    for (Node n : nodes) {
      if (n == null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a name a cold lookup took for a file also has a directory {@code name/}, which its parent's listing shows
   * instead (a client that listed the parent lists the directory): one ListObjectsV2 {@code max-keys=1}, only when a
   * listing is asked of a file.
   */
  private boolean directoryBeside(String path) {
    String dirKey = keys.dirKeyOrNull(path);
    try {
      return dirKey != null && pages.hasChildren(dirKey);
    } catch (StoreException e) {
      throw Errors.toFs(e, path);
    }
  }

}
