package io.ossgw.core.cache;

import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.vfs.DirPage;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One directory's complete listing: position -> node, in the order OSS lists keys ({@link DirPage#compare}), plus when it
 * was listed. A position is the entry's key below the directory: a file's name, a directory's name and {@code '/'}, an
 * old-style {@code name_$folder$} directory that key. The engine keeps the listing current with its own mutations
 * (create, unlink, rename, mkdir), so a lookup of a missing name in a listed directory needs no request, and re-listing
 * is only needed when the TTL ends.
 *
 * <p>A name has one entry: when OSS holds a file {@code x} and a directory {@code x/} (or {@code x_$folder$}), the
 * directory is listed and the file is not (SEMANTICS.md "Names the gateway cannot show").
 *
 * <p>A listing made to answer lookups ({@code forLookups}: up to four ListObjectsV2 pages of a directory in which a name
 * was missing, SEMANTICS.md "Caches") holds what the listing says of each entry, without the HEADs a readdir adds for
 * objects whose metadata was never seen; it answers lookups (an entry without its metadata is HEADed when looked up, as
 * from any listing) but not a readdir, which lists the directory again and replaces it.
 *
 * @param children position -> node (thread-safe, sorted)
 * @param listedAtNanos ticker time the LIST started
 * @param tally for a listing made to answer lookups only (see above), what it cost and answered; null for a readdir's
 */
public record DirState(ConcurrentSkipListMap<String, Node> children, long listedAtNanos, LookupTally tally) {
  /** The suffix of ossfs's old-style directory objects ({@code notsup_compat_dir} turns them off). */
  public static final String FOLDER_SUFFIX = "_$folder$";

  /** A readdir's listing. @param initial position -> node */
  public DirState(Map<String, Node> initial, long listedAtNanos) {
    this(sorted(initial), listedAtNanos, null);
  }

  /**
   * A listing made to answer lookups only.
   *
   * @param initial position -> node
   * @param tally what it cost; counts the lookups it answers
   */
  public static DirState forLookups(Map<String, Node> initial, long listedAtNanos, LookupTally tally) {
    return new DirState(sorted(initial), listedAtNanos, tally);
  }

  /** Whether this listing was made to answer lookups only. */
  public boolean forLookups() {
    return tally != null;
  }

  /** Counts a lookup this listing answered, when it was made for lookups. */
  public void answered() {
    if (tally != null) {
      tally.answered();
    }
  }

  private static ConcurrentSkipListMap<String, Node> sorted(Map<String, Node> initial) {
    ConcurrentSkipListMap<String, Node> m = new ConcurrentSkipListMap<>(DirPage::compare);
    m.putAll(initial);
    return m;
  }

  /** The position of a child the engine created or changed: {@code name/} for a directory object, else the name. */
  public static String positionOf(String name, Node node) {
    boolean dirKey = node.origin() == Origin.IMPLICIT_DIR || node.origin() == Origin.PREFIX
        || (node.objectKey() != null && node.objectKey().endsWith("/"));
    return dirKey ? name + "/" : name;
  }

  /** The name of the entry at a position. */
  public static String nameOf(String position, Node node) {
    if (position.endsWith("/")) {
      return position.substring(0, position.length() - 1);
    }
    if (node.origin() == Origin.IMPLICIT_DIR && position.endsWith(FOLDER_SUFFIX)) {
      return position.substring(0, position.length() - FOLDER_SUFFIX.length());
    }
    return position;
  }

  /** The child of a name, or null: a directory first, as it hides a file of the same name. */
  public Node child(String name) {
    Node n = children.get(name + "/");
    if (n == null) {
      n = children.get(name);
    }
    if (n == null) {
      n = children.get(name + FOLDER_SUFFIX);
      if (n != null && n.origin() != Origin.IMPLICIT_DIR) {
        n = null; // a file that happens to be called x_$folder$ is not the child x
      }
    }
    return n;
  }

  /** Records a new or changed child, replacing any entry the name had at another position. */
  public void put(String name, Node node) {
    String position = positionOf(name, node);
    children.put(position, node);
    removeOthers(name, position);
  }

  /** Removes every entry of a name. */
  public void remove(String name) {
    removeOthers(name, null);
  }

  private void removeOthers(String name, String kept) {
    for (String p : new String[] {name, name + "/", name + FOLDER_SUFFIX}) {
      if (!p.equals(kept)) {
        Node n = children.get(p);
        if (n != null && nameOf(p, n).equals(name)) {
          children.remove(p, n);
        }
      }
    }
  }

  /** The heap this listing holds, in bytes ({@link Footprint}). */
  public long weight() {
    long w = 64;
    for (Map.Entry<String, Node> e : children.entrySet()) {
      w += Footprint.entry(e.getKey(), e.getValue());
    }
    return w;
  }
}
