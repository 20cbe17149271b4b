package io.ossgw.nfs.export;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The export table: lookup by id (file handles) and by path (MOUNT). Immutable. */
public final class Exports {
  private final List<Export> all;
  private final Map<Integer, Export> byId = new HashMap<>();

  /** @throws IllegalArgumentException for two exports with the same path or id */
  public Exports(List<Export> exports) {
    this.all = List.copyOf(exports);
    Map<String, Export> byPath = new HashMap<>();
    for (Export e : all) {
      if (byPath.put(e.path(), e) != null) {
        throw new IllegalArgumentException("export path " + e.path() + " given twice");
      }
      if (byId.put(e.id(), e) != null) {
        throw new IllegalArgumentException("export id " + e.id() + " of " + e.path() + " is not unique");
      }
    }
  }

  public List<Export> all() {
    return all;
  }

  /** The export with this id, or null. */
  public Export byId(int id) {
    return byId.get(id);
  }

  /**
   * The export a MOUNT path falls in (the longest export path that is the path or one of its ancestors), with the
   * rest of the path as a VFS path.
   *
   * @return null if no export covers the path
   */
  public Match match(String mountPath) {
    String p = mountPath.length() > 1 && mountPath.endsWith("/")
        ? mountPath.substring(0, mountPath.length() - 1) : mountPath;
    List<Export> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparingInt((Export e) -> e.path().length()).reversed());
    for (Export e : sorted) {
      String root = e.path();
      if (p.equals(root)) {
        return new Match(e, "/");
      }
      String prefix = root.equals("/") ? "/" : root + "/";
      if (p.startsWith(prefix)) {
        return new Match(e, "/" + p.substring(prefix.length()));
      }
    }
    return null;
  }

  /** An export and a VFS path inside it. */
  public record Match(Export export, String vfsPath) {}
}
