package io.ossgw.core.inode;

import io.ossgw.core.cluster.InodeNumberStore;
import io.ossgw.core.memory.MvStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The persistent inode table: per name space, inode number (NFS's fileid, FUSE's {@code st_ino}) &lt;-&gt; path (absolute
 * within the name space, {@code "/"} its root), and a generation per number. One implementation for every front end:
 * NFS keeps one name space per export (its id) in {@code <stateDir>/nfs/nfs-handles.mv}, and the engine one (space
 * {@link #ENGINE_SPACE}) per mount in {@code <stateDir>/inodes-<mount id>.mv}, which FUSE (and Samba over it) report.
 * An H2 MVStore file; without a file the table lives on a temporary file and numbers do not survive a restart.
 *
 * <p>A path gets, when first seen, the number the engine derives from its object key ({@code FileAttr.ino()} of the
 * bare engine) unless another live path holds it (after a rename), in which case a free one is probed. So two tables
 * that saw the same history give the same numbers, and a fresh table gives the numbers ossgw always gave. The number
 * then follows the object through renames (directory renames move every entry below), which is what NFS clients
 * expect of a fileid and programs of {@code st_ino} ({@code tar}, {@code rsync}, {@code find -inum}, Samba's server
 * inode numbers). A removed path leaves a tombstone with its generation, so a new object at the same path gets the
 * same number with the next generation, and NFS handles of the removed one answer NFS3ERR_STALE.
 *
 * <p>The file format is the one nfs-server's {@code io.ossgw.nfs.handle.InodeTable} wrote (maps {@code fid.<space>}
 * and {@code path.<space>}, the handle secret in {@code meta}), so NFS handles given out before the move still
 * resolve.
 *
 * <p>Reads are lock-free; changes are serialized. {@link #commit()} writes pending changes (the NFS server calls it
 * after each call that changed something, so a handle given to a client survives a crash of the process); MVStore
 * also commits in the background about once a second, and {@link #close()} commits.
 *
 * <p>{@link #shared} puts the same rules on a cluster's store instead of the file (issue 23: {@code
 * ossgw.cluster.store}), so every gateway gives the same numbers, generations and handle secret; the file is then not
 * used. Every method may then throw {@link io.ossgw.core.cluster.ClusterStoreException}.
 */
public final class InodeTable implements AutoCloseable {
  /** The number of every name space's root. */
  public static final long ROOT = 1;
  /** The name space of an engine's own table (NFS export ids are those of its exports, in another file). */
  public static final int ENGINE_SPACE = 0;

  private final MVStore store;
  private final boolean temporary;
  private final byte[] secret;
  /** The cluster store's table, or null for the file's (the H2 code below then runs untouched). */
  private final SharedInodes shared;

  /** One table entry: the fileid's generation and current path, or a null path once removed. */
  public record Entry(int generation, String path) {
    boolean live() {
      return path != null;
    }

    String encode() {
      return generation + ":" + (path == null ? "" : path);
    }

    static Entry decode(String s) {
      int i = s.indexOf(':');
      String p = s.substring(i + 1);
      return new Entry(Integer.parseInt(s.substring(0, i)), p.isEmpty() ? null : p);
    }
  }

  private InodeTable(MVStore store, boolean temporary) {
    this.store = store;
    this.temporary = temporary;
    this.shared = null;
    MVMap<String, byte[]> meta = store.openMap("meta");
    byte[] s = meta.get("handle-secret");
    if (s == null) {
      s = new byte[16];
      new SecureRandom().nextBytes(s);
      meta.put("handle-secret", s);
      store.commit();
    }
    this.secret = s;
  }

  private InodeTable(SharedInodes shared) {
    this.store = null;
    this.temporary = false;
    this.shared = shared;
    this.secret = shared.secret();
  }

  /**
   * The table kept in a cluster's store (issue 23 item 1): the numbering rules of the file's table, each change one
   * atomic step of the store; {@link #commit()} and {@link #close()} have nothing to do.
   *
   * @param store the store's table (gateway-app's {@code RedisInodeNumberStore})
   * @throws io.ossgw.core.cluster.ClusterStoreException if the store cannot give the handle secret
   */
  public static InodeTable shared(InodeNumberStore store) {
    return new InodeTable(new SharedInodes(store));
  }

  /**
   * Opens (or creates) the table file, or a table for this process only for null; a page cache of {@link
   * MvStores#cacheMb()}.
   *
   * @param file the MVStore file (its directory is created), or null
   * @throws IllegalStateException if the file cannot be opened (for instance another process holds it)
   */
  public static InodeTable open(Path file) {
    return open(file, MvStores.cacheMb());
  }

  /**
   * As {@link #open(Path)} with a page cache of {@code cacheMb} megabytes (the engine's table keeps a small one: it
   * sits beside the read and write buffers in the gateway's memory budget). Without a file the table is on a temporary
   * file deleted when it closes (or the process ends): numbers last as long as the process, and a million names take
   * disk, not heap ({@link MvStores}).
   */
  public static InodeTable open(Path file, int cacheMb) {
    if (file == null) {
      return new InodeTable(MvStores.openTemporary("ossgw-inodes-"), true);
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      return new InodeTable(MvStores.open(file, cacheMb), false);
    } catch (java.io.IOException | RuntimeException e) {
      String m = String.valueOf(e.getMessage());
      throw new IllegalStateException("cannot open the inode table " + file + ": " + m + (m.contains("is locked")
          ? " (another ossgw process uses this state directory: give each its own, ossgw.state-dir or "
              + "OSSGW_STATE_DIR)" : ""), e);
    }
  }

  /** The 16-byte secret of NFS's handle MAC, created once and kept with the table. */
  public byte[] secret() {
    return secret.clone();
  }

  /**
   * Recent answers of {@link #numberOf} (file tables only), direct-mapped by path: NFS and the engine ask it on every
   * stat, and two MVMap searches per ask (generic keys, compared through H2's type dispatch) were 2 % of an NFS
   * small-file write's CPU. An answer holds while {@link #version} is the one it was read at.
   */
  private record Recent(int space, String path, long number, long version) {}

  private static final int RECENT_SLOTS = 4096;
  private final AtomicReferenceArray<Recent> recent = new AtomicReferenceArray<>(RECENT_SLOTS);
  /**
   * Bumped before and after each removal and rename (under the table's lock): an answer read while one ran, or
   * before it, no longer matches. New paths need no bump: no answer exists for them yet.
   */
  private volatile long version;

  private static int recentSlot(int space, String path) {
    return (path.hashCode() * 31 + space) & (RECENT_SLOTS - 1);
  }

  // openMap looks the name up in the store's meta map: the engine asks on every stat, so the maps are kept
  private final ConcurrentHashMap<Integer, MVMap<Long, String>> fileidMaps = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, MVMap<String, Long>> pathMaps = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, MVMap<Long, String>> namedMaps = new ConcurrentHashMap<>();

  private MVMap<Long, String> namedOrigins(int space) {
    return namedMaps.computeIfAbsent(space, s -> store.openMap("named." + s));
  }

  private MVMap<Long, String> fileids(int space) {
    return fileidMaps.computeIfAbsent(space, s -> store.openMap("fid." + s));
  }

  private MVMap<String, Long> paths(int space) {
    return pathMaps.computeIfAbsent(space, s -> store.openMap("path." + s));
  }

  /** The entry of a fileid, or null if it was never given out. */
  public Entry resolve(int space, long fileid) {
    if (fileid == ROOT) {
      return new Entry(0, "/");
    }
    if (shared != null) {
      return shared.resolve(space, fileid);
    }
    String v = fileids(space).get(fileid);
    return v == null ? null : Entry.decode(v);
  }

  /**
   * Where an NFS named handle leads (a file never recorded when the handle was made, named by its parent directory's
   * number and its name): the fileid's entry if the table recorded it since (a rename or removal through the gateway
   * records it first); else, the parent being live, {@code (1, parent's path/name)} unless another live number holds
   * that path (a rename replaced the file); else null. One store request for a {@link #shared} table, where {@link
   * #resolve} twice and {@link #known} took three.
   */
  public Entry resolveNamed(int space, long fileid, long parent, String name) {
    if (shared != null) {
      return shared.resolveNamed(space, fileid, parent, name);
    }
    Entry e = resolve(space, fileid);
    if (e != null) {
      return e;
    }
    Entry p = resolve(space, parent);
    if (p == null || p.path() == null) {
      return null;
    }
    String path = io.ossgw.core.namespace.VPaths.child(p.path(), name);
    return known(space, path) == null ? new Entry(1, path) : null;
  }

  /**
   * The number of a path, allocated on first sight: {@link #idOf} without the generation, and without decoding the
   * entry when the path is known (the engine asks on every stat and for every listed entry).
   *
   * @param preferred the number to use if free (the engine's number of the object)
   */
  public long numberOf(int space, String path, long preferred) {
    if (path.equals("/")) {
      return ROOT;
    }
    if (shared != null) {
      return shared.idOf(space, path, preferred, true)[0];
    }
    long v = version;
    int slot = recentSlot(space, path);
    Recent r = recent.get(slot);
    if (r != null && r.version() == v && r.space() == space && r.path().equals(path)) {
      return r.number();
    }
    Long id = paths(space).get(path);
    long number = id != null && holds(fileids(space).get(id), path) ? id : idOf(space, path, preferred)[0];
    recent.set(slot, new Recent(space, path, number, v));
    return number;
  }

  /**
   * The number {@link #numberOf} gives a path, recording nothing when the path is new and the number it would get is
   * free (the usual case: the preferred number of an object never renamed): a listing shows every entry's number
   * without writing a million new names, and the first lookup of a name then records the same number. Only when the
   * preferred number is held by another live path (after a rename) is the path recorded now, so that the probed
   * number it shows is the one it keeps.
   *
   * @param preferred the number to use if free (the engine's number of the object)
   */
  public long numberIfFirstSeen(int space, String path, long preferred) {
    return firstSeen(space, path, preferred).number();
  }

  /**
   * {@link #numberIfFirstSeen}'s answer with what NFS needs to give the path a handle ({@code
   * io.ossgw.nfs.handle.HandleIssuer}), from one table read (one store request for a {@link #shared} table) where it
   * took three.
   *
   * @param number the number the path shows
   * @param generation the path's generation if the table records it live, else 0
   * @param fresh true if the path is not recorded and its number has no entry at all, live or removed (it would be
   *     recorded at generation 1)
   */
  public record FirstSeen(long number, int generation, boolean fresh) {}

  /** As {@link #numberIfFirstSeen}, with the generation and {@link FirstSeen#fresh} (the root: its number at generation 0, as {@link
   * #idOf}). */
  public FirstSeen firstSeen(int space, String path, long preferred) {
    if (path.equals("/")) {
      return new FirstSeen(ROOT, 0, false);
    }
    if (shared != null) {
      long[] got = shared.idOf(space, path, preferred, false);
      return new FirstSeen(got[0], (int) got[1], got.length > 2 && got[2] == 1);
    }
    MVMap<Long, String> byId = fileids(space);
    Long id = paths(space).get(path);
    if (id != null) {
      String v = byId.get(id);
      if (holds(v, path)) {
        return new FirstSeen(id, Integer.parseInt(v, 0, v.indexOf(':'), 10), false);
      }
    }
    long candidate = usable(preferred) ? preferred : mix(preferred);
    String v = byId.get(candidate);
    if (v == null) {
      return new FirstSeen(candidate, 0, true); // what idOf would allocate first, at generation 1
    }
    if (!Entry.decode(v).live()) {
      return new FirstSeen(candidate, 0, false); // a tombstone's number: idOf would give the next generation
    }
    long[] got = idOf(space, path, preferred); // recorded now: the probed number shown is the one it keeps
    return new FirstSeen(got[0], (int) got[1], false);
  }

  /** True if an encoded entry ({@code generation:path}) is live with exactly {@code path}. */
  private static boolean holds(String encoded, String path) {
    int start = encoded == null ? -1 : encoded.length() - path.length();
    return start > 0 && encoded.charAt(start - 1) == ':' && encoded.endsWith(path)
        && encoded.indexOf(':') == start - 1;
  }

  /** The number a live path holds, or null if the table has not seen it (or it was removed). */
  public Long known(int space, String path) {
    if (path.equals("/")) {
      return ROOT;
    }
    if (shared != null) {
      return shared.known(space, path);
    }
    Long id = paths(space).get(path);
    if (id == null) {
      return null;
    }
    Entry e = resolve(space, id);
    return e != null && path.equals(e.path()) ? id : null;
  }

  /**
   * The fileid and generation of a path, allocated on first sight.
   *
   * @param preferred the fileid to use if free (the engine's ino of the object)
   * @return a two-element array: fileid, generation
   */
  public long[] idOf(int space, String path, long preferred) {
    if (path.equals("/")) {
      return new long[] {ROOT, 0};
    }
    if (shared != null) {
      return shared.idOf(space, path, preferred, true);
    }
    MVMap<String, Long> byPath = paths(space);
    Long known = byPath.get(path);
    if (known != null) {
      Entry e = resolve(space, known);
      if (e != null && path.equals(e.path())) {
        return new long[] {known, e.generation()};
      }
    }
    synchronized (this) {
      MVMap<Long, String> byId = fileids(space);
      known = byPath.get(path);
      if (known != null) {
        String v = byId.get(known);
        if (v != null && path.equals(Entry.decode(v).path())) {
          return new long[] {known, Entry.decode(v).generation()};
        }
      }
      long id = usable(preferred) ? preferred : mix(preferred);
      while (true) {
        String v = byId.get(id);
        if (v == null || !Entry.decode(v).live()) {
          int gen = v == null ? 1 : Entry.decode(v).generation() + 1;
          byId.put(id, new Entry(gen, path).encode());
          byPath.put(path, id);
          return new long[] {id, gen};
        }
        id = mix(id);
      }
    }
  }

  /** A path was removed: its fileid's handles become stale. */
  public synchronized void removed(int space, String path) {
    if (shared != null) {
      shared.removed(space, path);
      return;
    }
    version++;
    try {
      Long id = paths(space).remove(path);
      if (id != null) {
        MVMap<Long, String> byId = fileids(space);
        String v = byId.get(id);
        if (v != null) {
          byId.put(id, new Entry(Entry.decode(v).generation(), null).encode());
        }
      }
    } finally {
      version++;
    }
  }

  /**
   * {@code from} was renamed to {@code to}: its fileid (and those of everything below it) move along. A fileid that
   * {@code to} held before (the replaced object) becomes stale.
   */
  public synchronized void renamed(int space, String from, String to) {
    if (shared != null) {
      shared.renamed(space, from, to);
      return;
    }
    version++;
    try {
      move(space, from, to);
    } finally {
      version++;
    }
  }

  private void move(int space, String from, String to) {
    MVMap<String, Long> byPath = paths(space);
    Long self = byPath.get(from);
    String prefix = from + "/";
    // an MVMap cursor walks the map as it was when the cursor was made (its pages are copy-on-write), so the entries
    // below `from` are moved as they are read, without a list of them all (a million-name directory)
    Iterator<String> below = byPath.keyIterator(prefix);
    removed(space, to);
    if (self != null) {
      moveOne(space, from, to, self);
    }
    while (below.hasNext()) {
      String k = below.next();
      if (!k.startsWith(prefix)) {
        break;
      }
      Long id = byPath.get(k);
      if (id != null) {
        moveOne(space, k, to + k.substring(from.length()), id);
      }
    }
  }

  private void moveOne(int space, String oldPath, String newPath, long id) {
    MVMap<String, Long> byPath = paths(space);
    MVMap<Long, String> byId = fileids(space);
    byPath.remove(oldPath);
    Long displaced = byPath.put(newPath, id);
    if (displaced != null && displaced != id) {
      String dv = byId.get(displaced);
      if (dv != null) {
        byId.put(displaced, new Entry(Entry.decode(dv).generation(), null).encode());
      }
    }
    String v = byId.get(id);
    int gen = v == null ? 1 : Entry.decode(v).generation();
    byId.put(id, new Entry(gen, newPath).encode());
  }

  /**
   * Where an NFS named handle pointed when it was given out: the parent directory's number and the file's name
   * ({@link #rememberNamed}).
   */
  public record NamedOrigin(long parent, String name) {}

  /**
   * Keeps the named handle a file had before a rename or removal through the gateway recorded it (NFS: {@code
   * io.ossgw.nfs.handle.HandleIssuer#recordBeforeChange}), so the file keeps that one handle: a client that holds it
   * and looks the new name up must get the same handle back, or the Linux client makes two inodes of one file and
   * reads one's stale pages through the other. Not kept in a {@link #shared} table (there the new name answers a
   * recorded handle).
   */
  public void rememberNamed(int space, long fileid, long parent, String name) {
    if (shared == null) {
      namedOrigins(space).put(fileid, parent + "/" + name);
    }
  }

  /** The named handle origin kept for {@code fileid} by {@link #rememberNamed}, or null. */
  public NamedOrigin namedOrigin(int space, long fileid) {
    if (shared != null) {
      return null;
    }
    String v = namedOrigins(space).get(fileid);
    if (v == null) {
      return null;
    }
    int slash = v.indexOf('/');
    return new NamedOrigin(Long.parseLong(v, 0, slash, 10), v.substring(slash + 1));
  }

  /** Receives the entries of {@link #forEach}. */
  @FunctionalInterface
  public interface EntryVisitor {
    /** One number of one name space; {@code entry.path()} null for a tombstone. */
    void entry(int space, long fileid, Entry entry);
  }

  /**
   * Visits every entry of the file's table, tombstones included, name space by name space ({@code ossgw cluster
   * import-inodes} copies them to the store). Not for a {@link #shared} table.
   */
  public void forEach(EntryVisitor visitor) {
    if (shared != null) {
      throw new IllegalStateException("a shared table is read in its store");
    }
    for (String name : store.getMapNames()) {
      if (name.startsWith("fid.")) {
        int space = Integer.parseInt(name.substring(4));
        for (Map.Entry<Long, String> e : fileids(space).entrySet()) {
          visitor.entry(space, e.getKey(), Entry.decode(e.getValue()));
        }
      }
    }
  }

  /** Writes pending changes to the file (no-op in memory or when nothing changed). */
  public void commit() {
    if (shared != null) {
      return; // each change was one step of the store
    }
    if (store.hasUnsavedChanges()) {
      store.commit();
    }
  }

  /**
   * Closes the file without writing what is not yet committed, as a crash would (tests: a "kill -9" inside one JVM,
   * which must also release the file lock).
   */
  public void closeImmediately() {
    if (shared != null) {
      return;
    }
    store.closeImmediately();
  }

  /** Commits and closes the file (a temporary one is deleted). */
  @Override
  public void close() {
    if (shared != null) {
      return; // the store's connection belongs to the cluster service
    }
    String name = store.getFileStore() == null ? null : store.getFileStore().getFileName();
    store.close();
    if (temporary && name != null) {
      try {
        Files.deleteIfExists(Path.of(name));
      } catch (java.io.IOException | RuntimeException e) {
        // deleted at exit anyway
      }
    }
  }

  private static boolean usable(long id) {
    return id > ROOT;
  }

  /** The next candidate after a taken fileid: a SplitMix64 step, positive and above the root's id. */
  static long mix(long x) {
    long z = x + 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    z = (z ^ (z >>> 31)) & Long.MAX_VALUE;
    return z <= ROOT ? z + 2 : z;
  }
}
