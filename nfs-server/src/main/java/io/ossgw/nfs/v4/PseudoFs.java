package io.ossgw.nfs.v4;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The pseudo file system of RFC 8881 §7.3: the read-only directories that lead from "/" to the exports. Export
 * "/bucket" is the child "bucket" of the root; export "/a/b" gets the pseudo directory "/a". A path that is an export
 * or lies inside one is not a pseudo node (it is that export's directory), so with an export of "/" there is no pseudo
 * node at all. A node is visible to a client when some export below it allows the client's address (its CIDR list),
 * so a client sees neither the names nor the directories of exports it may not use. Immutable, built once from the
 * export table.
 *
 * <p>A node's fileid is the first 8 bytes of the SHA-256 of its path: stable across restarts with the same exports,
 * so a pseudo node's filehandle (which carries it, see {@link V4Handles}) stays valid.
 */
final class PseudoFs {
  /** One pseudo directory. */
  record Node(String path, long fileid) {}

  /** A child of a pseudo directory: another pseudo directory, or the root of an export. */
  record Child(String name, Node node, Export export) {}

  private final Map<String, Node> byPath = new HashMap<>();
  private final Map<Long, Node> byFileid = new HashMap<>();
  private final Map<String, Export> exportsByPath = new HashMap<>();
  /** Child names of each pseudo node, sorted (a stable READDIR order). */
  private final Map<String, TreeSet<String>> children = new HashMap<>();

  PseudoFs(Exports exports) {
    for (Export e : exports.all()) {
      exportsByPath.put(e.path(), e);
    }
    if (!insideExport("/")) {
      node("/");
    }
    for (Export e : exports.all()) {
      String p = e.path();
      while (!p.equals("/")) {
        String parent = parent(p);
        if (insideExport(parent)) {
          break;
        }
        node(parent);
        children.get(parent).add(p.substring(p.lastIndexOf('/') + 1));
        p = parent;
      }
    }
  }

  private void node(String path) {
    if (!byPath.containsKey(path)) {
      Node n = new Node(path, fileidOf(path));
      byPath.put(path, n);
      byFileid.put(n.fileid(), n);
      children.put(path, new TreeSet<>());
    }
  }

  /** Whether {@code path} is an export's root or lies inside one (so it is not a pseudo node). */
  private boolean insideExport(String path) {
    for (String p = path; ; p = parent(p)) {
      if (exportsByPath.containsKey(p)) {
        return true;
      }
      if (p.equals("/")) {
        return false;
      }
    }
  }

  /** The pseudo node at {@code path}, or null (no such node: an export, inside one, or nothing). */
  Node byPath(String path) {
    return byPath.get(path);
  }

  Node byFileid(long fileid) {
    return byFileid.get(fileid);
  }

  /** The export whose root is exactly {@code path}, or null. */
  Export exportAt(String path) {
    return exportsByPath.get(path);
  }

  /** Whether a client at {@code address} sees the node (some export below it allows the address). */
  boolean visible(Node n, InetAddress address) {
    if (n.path().equals("/")) {
      return true;
    }
    String prefix = n.path() + "/";
    for (Export e : exportsByPath.values()) {
      if (e.path().startsWith(prefix) && address != null && e.allows(address)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The children of a pseudo directory a client at {@code address} sees, sorted by name: pseudo directories with a
   * visible export below and the roots of exports whose CIDR list allows the address.
   */
  List<Child> children(Node dir, InetAddress address) {
    List<Child> out = new ArrayList<>();
    for (String name : children.getOrDefault(dir.path(), new TreeSet<>())) {
      Child c = child(dir, name, address);
      if (c != null) {
        out.add(c);
      }
    }
    return out;
  }

  /** The child {@code name} of a pseudo directory if the client sees it, else null. */
  Child child(Node dir, String name, InetAddress address) {
    if (!children.getOrDefault(dir.path(), new TreeSet<>()).contains(name)) {
      return null;
    }
    String path = dir.path().equals("/") ? "/" + name : dir.path() + "/" + name;
    Export e = exportsByPath.get(path);
    if (e != null) {
      return address != null && e.allows(address) ? new Child(name, null, e) : null;
    }
    Node n = byPath.get(path);
    return n != null && visible(n, address) ? new Child(name, n, null) : null;
  }

  /** The parent path of an absolute path ("/" for "/x" and for "/"). */
  static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }

  /** A pseudo path's fileid: the first 8 bytes of SHA-256 of the path, never 0. */
  static long fileidOf(String path) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
      long v = ByteBuffer.wrap(d).getLong();
      return v == 0 ? 1 : v;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
