package io.ossgw.core.engine;

import io.ossgw.core.meta.Node;
import io.ossgw.core.namespace.VPaths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The open-file table: path -> {@link OpenFile}, shared by every handle of the path. Files with unsaved data or not yet
 * uploaded are shown by lookups and listings from here, so `ls` sees a file while it is being written.
 */
final class OpenFiles {
  private final Map<String, OpenFile> byPath = new HashMap<>();

  /** The open file of a path, created by {@code factory} if none, with one more reference. */
  synchronized OpenFile acquire(String path, Supplier<OpenFile> factory) {
    OpenFile f = byPath.get(path);
    if (f == null) {
      f = factory.get();
      byPath.put(path, f);
    }
    f.retain();
    return f;
  }

  /** Drops a reference; true if it was the last (the file is then out of the table). */
  synchronized boolean release(OpenFile f) {
    if (f.releaseRef() > 0) {
      return false;
    }
    byPath.remove(f.path(), f);
    return true;
  }

  synchronized OpenFile get(String path) {
    return byPath.get(path);
  }

  /** The node of a file whose newest state is local (unsaved data, or created and not uploaded), else null. */
  Node nodeOf(String path) {
    OpenFile f;
    synchronized (this) {
      f = byPath.get(path);
    }
    return f != null && !f.unlinked() && f.hasLocalState() ? f.currentNode() : null;
  }

  /** Name -> node of the files in {@code dir} whose newest state is local (what a listing adds or updates). */
  List<Map.Entry<String, Node>> pendingIn(String dir) {
    List<Map.Entry<String, Node>> out = new ArrayList<>();
    for (OpenFile f : snapshot()) {
      if (!f.unlinked() && f.hasLocalState() && VPaths.parent(f.path()).equals(dir)) {
        out.add(Map.entry(VPaths.name(f.path()), f.currentNode()));
      }
    }
    return out;
  }

  /** Open files at or below a path. */
  synchronized List<OpenFile> under(String path) {
    List<OpenFile> out = new ArrayList<>();
    for (OpenFile f : byPath.values()) {
      if (VPaths.isSameOrBelow(f.path(), path)) {
        out.add(f);
      }
    }
    return out;
  }

  /**
   * Re-keys an open file after a rename (the caller has already moved it).
   *
   * @return the open file the rename replaced at the new path (the caller marks it unlinked, outside this table's
   *     lock: marking takes the file's lock, which may be held by a thread waiting for this table), or null
   */
  synchronized OpenFile rekey(String oldPath, OpenFile f) {
    byPath.remove(oldPath, f);
    OpenFile displaced = byPath.put(f.path(), f);
    return displaced != f ? displaced : null;
  }

  /**
   * Takes an unlinked or replaced file out of the table and marks it so: its handles keep reading what they staged,
   * its later writes and flushes go nowhere, and the next open or create of the path gets a new file.
   */
  void detach(OpenFile f) {
    if (f == null) {
      return;
    }
    synchronized (this) {
      byPath.remove(f.path(), f);
    }
    f.markUnlinked();
  }

  synchronized List<OpenFile> snapshot() {
    return new ArrayList<>(byPath.values());
  }
}
