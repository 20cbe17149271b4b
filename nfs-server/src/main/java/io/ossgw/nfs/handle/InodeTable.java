package io.ossgw.nfs.handle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/**
 * The persistent table behind file handles: per export, fileid &lt;-&gt; VFS path (relative to the export root), and
 * a generation per fileid. An H2 MVStore file ({@code <stateDir>/nfs-handles.mv}); without a state directory the
 * table lives in memory and handles do not survive a restart.
 *
 * <p>A path gets, when first seen, the fileid the engine derives from its object key ({@code FileAttr.ino()}) unless
 * another live path holds it (after a rename), in which case a free one is probed. The fileid then follows the
 * object through renames (directory renames move every entry below), which is what NFS clients expect of a fileid and
 * a handle. A removed path leaves a tombstone with its generation, so a new object at the same path gets the same
 * fileid with the next generation, and handles of the removed one answer NFS3ERR_STALE.
 *
 * <p>Reads are lock-free; changes are serialized. Changes are committed by {@link #commit()} (the NFS server calls it
 * after each call that changed something), so a handle given to a client survives a crash of the process.
 */
public final class InodeTable implements AutoCloseable {
  /** The export root's fileid. */
  public static final long ROOT = 1;
  private static final String FILE_NAME = "nfs-handles.mv";

  private final MVStore store;
  private final byte[] secret;

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

  private InodeTable(MVStore store) {
    this.store = store;
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

  /**
   * Opens (or creates) the table in {@code stateDir}, or an in-memory one for null.
   *
   * @throws IllegalStateException if the file cannot be opened (for instance another server holds it)
   */
  public static InodeTable open(Path stateDir) {
    if (stateDir == null) {
      return new InodeTable(new MVStore.Builder().open());
    }
    try {
      Files.createDirectories(stateDir);
      return new InodeTable(new MVStore.Builder().fileName(stateDir.resolve(FILE_NAME).toString())
          .open());
    } catch (java.io.IOException | RuntimeException e) {
      throw new IllegalStateException("cannot open the NFS handle table in " + stateDir + ": " + e.getMessage(), e);
    }
  }

  /** The 16-byte secret of the handle MAC, created once and kept with the table. */
  public byte[] secret() {
    return secret.clone();
  }

  private MVMap<Long, String> fileids(int exportId) {
    return store.openMap("fid." + exportId);
  }

  private MVMap<String, Long> paths(int exportId) {
    return store.openMap("path." + exportId);
  }

  /** The entry of a fileid, or null if it was never given out. */
  public Entry resolve(int exportId, long fileid) {
    if (fileid == ROOT) {
      return new Entry(0, "/");
    }
    String v = fileids(exportId).get(fileid);
    return v == null ? null : Entry.decode(v);
  }

  /**
   * The fileid and generation of a path, allocated on first sight.
   *
   * @param preferred the fileid to use if free (the engine's ino of the object)
   * @return a two-element array: fileid, generation
   */
  public long[] idOf(int exportId, String path, long preferred) {
    if (path.equals("/")) {
      return new long[] {ROOT, 0};
    }
    MVMap<String, Long> byPath = paths(exportId);
    Long known = byPath.get(path);
    if (known != null) {
      Entry e = resolve(exportId, known);
      if (e != null && path.equals(e.path())) {
        return new long[] {known, e.generation()};
      }
    }
    synchronized (this) {
      MVMap<Long, String> byId = fileids(exportId);
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
  public synchronized void removed(int exportId, String path) {
    Long id = paths(exportId).remove(path);
    if (id != null) {
      MVMap<Long, String> byId = fileids(exportId);
      String v = byId.get(id);
      if (v != null) {
        byId.put(id, new Entry(Entry.decode(v).generation(), null).encode());
      }
    }
  }

  /**
   * {@code from} was renamed to {@code to}: its fileid (and those of everything below it) move along. A fileid that
   * {@code to} held before (the replaced object) becomes stale.
   */
  public synchronized void renamed(int exportId, String from, String to) {
    MVMap<String, Long> byPath = paths(exportId);
    MVMap<Long, String> byId = fileids(exportId);
    List<Map.Entry<String, Long>> moving = new ArrayList<>();
    Long self = byPath.get(from);
    if (self != null) {
      moving.add(Map.entry(from, self));
    }
    String prefix = from + "/";
    Iterator<String> it = byPath.keyIterator(prefix);
    while (it.hasNext()) {
      String k = it.next();
      if (!k.startsWith(prefix)) {
        break;
      }
      moving.add(Map.entry(k, byPath.get(k)));
    }
    removed(exportId, to);
    for (Map.Entry<String, Long> m : moving) {
      String newPath = to + m.getKey().substring(from.length());
      byPath.remove(m.getKey());
      Long displaced = byPath.put(newPath, m.getValue());
      if (displaced != null && !displaced.equals(m.getValue())) {
        String dv = byId.get(displaced);
        if (dv != null) {
          byId.put(displaced, new Entry(Entry.decode(dv).generation(), null).encode());
        }
      }
      String v = byId.get(m.getValue());
      int gen = v == null ? 1 : Entry.decode(v).generation();
      byId.put(m.getValue(), new Entry(gen, newPath).encode());
    }
  }

  /** Writes pending changes to the file (no-op in memory or when nothing changed). */
  public void commit() {
    if (store.hasUnsavedChanges()) {
      store.commit();
    }
  }

  /** Commits and closes the file. */
  @Override
  public void close() {
    store.close();
  }

  private static boolean usable(long id) {
    return id > ROOT;
  }

  /** The next candidate after a taken fileid: a SplitMix64 step, positive and above the root's id. */
  private static long mix(long x) {
    long z = x + 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    z = (z ^ (z >>> 31)) & Long.MAX_VALUE;
    return z <= ROOT ? z + 2 : z;
  }
}
