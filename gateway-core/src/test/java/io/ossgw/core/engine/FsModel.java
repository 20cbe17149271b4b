package io.ossgw.core.engine;

import io.ossgw.core.vfs.Errno;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a POSIX file system holds after a sequence of operations: each file (its bytes, shared by the names and open
 * handles that reach it) and the set of directories (the root, "", always exists). Each operation returns the errno
 * POSIX gives for it in the current state (null: it succeeds, and the model changed), so {@link ReferenceModelTest} can
 * hold the engine to both. An open file keeps its {@link Inode} when it is renamed, replaced or unlinked, as POSIX
 * handles do. Paths are relative, "/" separated, without a leading slash.
 */
final class FsModel {
  /** A file's contents, reached by at most one name and by the open handles on it. */
  static final class Inode {
    byte[] data = new byte[0];

    /** pwrite(data, offset): a hole before {@code offset} reads as zeros; no bytes change no size. */
    void write(long offset, byte[] bytes) {
      long end = bytes.length == 0 ? data.length : Math.max(data.length, offset + bytes.length);
      data = Arrays.copyOf(data, (int) end);
      if (bytes.length > 0) {
        System.arraycopy(bytes, 0, data, (int) offset, bytes.length);
      }
    }
  }

  final TreeMap<String, Inode> files = new TreeMap<>();
  final TreeSet<String> dirs = new TreeSet<>(List.of(""));

  boolean isFile(String p) {
    return files.containsKey(p);
  }

  boolean isDir(String p) {
    return dirs.contains(p);
  }

  boolean exists(String p) {
    return isFile(p) || isDir(p);
  }

  static String parent(String p) {
    int i = p.lastIndexOf('/');
    return i < 0 ? "" : p.substring(0, i);
  }

  static String name(String p) {
    return p.substring(p.lastIndexOf('/') + 1);
  }

  /** The errno of reaching {@code p}'s parent: ENOENT when an ancestor is missing, ENOTDIR when one is a file. */
  Errno parentError(String p) {
    String parent = parent(p);
    if (parent.isEmpty()) {
      return null;
    }
    Errno above = parentError(parent);
    if (above != null) {
      return above;
    }
    return isDir(parent) ? null : isFile(parent) ? Errno.ENOTDIR : Errno.ENOENT;
  }

  /** The names directly in directory {@code d}. */
  TreeSet<String> children(String d) {
    TreeSet<String> names = new TreeSet<>();
    String prefix = d.isEmpty() ? "" : d + "/";
    for (String p : files.keySet()) {
      if (p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0) {
        names.add(p.substring(prefix.length()));
      }
    }
    for (String p : dirs) {
      if (!p.isEmpty() && p.startsWith(prefix) && p.indexOf('/', prefix.length()) < 0) {
        names.add(p.substring(prefix.length()));
      }
    }
    return names;
  }

  /** open(O_RDWR|O_CREAT) of {@code p}: the file it reaches (a new empty one if there was none), or the errno. */
  Object open(String p) {
    Errno e = parentError(p);
    if (e != null) {
      return e;
    }
    if (isDir(p)) {
      return Errno.EISDIR;
    }
    return files.computeIfAbsent(p, k -> new Inode());
  }

  /** open(O_RDWR|O_CREAT), pwrite(data, offset), close. */
  Errno write(String p, long offset, byte[] data) {
    Object o = open(p);
    if (o instanceof Errno e) {
      return e;
    }
    ((Inode) o).write(offset, data);
    return null;
  }

  /** truncate(2) of a path. */
  Errno truncate(String p, long size) {
    Errno e = fileError(p);
    if (e != null) {
      return e;
    }
    Inode f = files.get(p);
    f.data = Arrays.copyOf(f.data, (int) size);
    return null;
  }

  Errno unlink(String p) {
    Errno e = fileError(p);
    if (e != null) {
      return e;
    }
    files.remove(p);
    return null;
  }

  Errno mkdir(String p) {
    Errno e = parentError(p);
    if (e != null) {
      return e;
    }
    if (exists(p)) {
      return Errno.EEXIST;
    }
    dirs.add(p);
    return null;
  }

  Errno rmdir(String p) {
    Errno e = lookupError(p);
    if (e != null) {
      return e;
    }
    if (isFile(p)) {
      return Errno.ENOTDIR;
    }
    if (!children(p).isEmpty()) {
      return Errno.ENOTEMPTY;
    }
    dirs.remove(p);
    return null;
  }

  /** Whether rename(2) of {@code a} to {@code b} is left out: one is the other's ancestor (the kernel's own checks). */
  static boolean nested(String a, String b) {
    return a.startsWith(b + "/") || b.startsWith(a + "/");
  }

  /** rename(2) within the model; the caller leaves out {@link #nested} pairs. */
  Errno rename(String a, String b) {
    Errno e = lookupError(a);
    if (e == null) {
      e = parentError(b);
    }
    if (e != null) {
      return e;
    }
    if (a.equals(b)) {
      return null;
    }
    if (isFile(a)) {
      if (isDir(b)) {
        return Errno.EISDIR;
      }
      files.put(b, files.remove(a));
      return null;
    }
    if (isFile(b)) {
      return Errno.ENOTDIR;
    }
    if (isDir(b) && !children(b).isEmpty()) {
      return Errno.ENOTEMPTY;
    }
    dirs.remove(b);
    moveTree(a, b);
    return null;
  }

  private void moveTree(String a, String b) {
    String from = a + "/";
    for (String p : List.copyOf(files.keySet())) {
      if (p.startsWith(from)) {
        files.put(b + "/" + p.substring(from.length()), files.remove(p));
      }
    }
    for (String p : List.copyOf(dirs)) {
      if (p.equals(a) || p.startsWith(from)) {
        dirs.remove(p);
        dirs.add(b + p.substring(a.length()));
      }
    }
  }

  /** The errno of reaching {@code p} as a file: its lookup's, or EISDIR for a directory. */
  Errno fileError(String p) {
    Errno e = lookupError(p);
    return e != null ? e : isDir(p) ? Errno.EISDIR : null;
  }

  /** The errno of looking up {@code p} itself: its parent's, or ENOENT. */
  Errno lookupError(String p) {
    Errno e = parentError(p);
    return e != null ? e : exists(p) ? null : Errno.ENOENT;
  }

  /** The bytes of the file at {@code p}. */
  byte[] bytes(String p) {
    return files.get(p).data;
  }

  /** The name that reaches {@code f}, or null when it has none (unlinked or replaced while open). */
  String pathOf(Inode f) {
    for (Map.Entry<String, Inode> e : files.entrySet()) {
      if (e.getValue() == f) {
        return e.getKey();
      }
    }
    return null;
  }
}
