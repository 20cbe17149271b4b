package io.ossgw.fuse;

import io.ossgw.core.vfs.FileHandle;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The {@code .fuse_hidden} names libfuse's high-level API gives unlinked open files (without {@code hard_remove}),
 * kept only in memory: never an object in the bucket, never in a listing.
 *
 * <p>What libfuse does (lib/fuse.c of 2.9 and 3.x, {@code fuse_lib_unlink}/{@code fuse_lib_rename} → {@code
 * hide_node} → {@code hidden_name}): when a name that has open handles is unlinked (or is the target of a rename), it
 * picks {@code .fuse_hidden%08x%08x} (its own node id, a counter) in the same directory, calls getattr on it and uses
 * it only if that answers ENOENT, then calls rename(name, hidden), all while serving that one UNLINK (or RENAME)
 * request on one thread. From then on it answers every request on the node (fstat's GETATTR without a file handle,
 * chmod, ...) with the hidden path, and after the last release ({@code fuse_do_release}) or at unmount ({@code
 * fuse_destroy}) calls unlink(hidden).
 *
 * <p>The adapter turns that rename into the unlink the user asked for (DeleteObject; the open file keeps working, see
 * {@code VirtualFileSystem#unlink}) and records the hidden name here with the file's handles, so a getattr of it is
 * answered from the open file ({@code st_nlink} 0) and the final unlink costs no request.
 *
 * <p>Only libfuse's own rename is taken so (issue 21, D6: a user's {@code mv f .fuse_hidden00000000000000aa} of
 * an open file used to delete it): the name alone cannot tell, since a user may pick any name and libfuse's node ids
 * are its own (not the inode numbers the adapter hands out). What tells is the request: libfuse's probe (a getattr of
 * the hidden-form name answering ENOENT) marks the kernel request being served ({@link RequestMark}), and only a
 * rename onto that name within the same request is libfuse's hide. A user's rename is a RENAME request of its own (the
 * kernel's LOOKUP of the new name came in another request), so it is an ordinary rename: the object moves to the new
 * key, listed and readable, whether the file is open or not. A name of that form that a user creates is an ordinary
 * object too.
 *
 * <p>Thread-safe.
 */
final class HiddenNames {
  /** libfuse's {@code ".fuse_hidden%08x%08x"}. */
  private static final Pattern HIDDEN = Pattern.compile("\\.fuse_hidden[0-9a-f]{16}");

  private final Map<String, List<FileHandle>> names = new ConcurrentHashMap<>();
  private final Set<FileHandle> handles = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  /** True if {@code to} is a name of libfuse's hidden form in the directory of {@code from}. */
  static boolean isHideRename(String from, String to) {
    if (from == null || to == null) {
      return false;
    }
    int slash = to.lastIndexOf('/');
    return slash >= 0 && slash == from.lastIndexOf('/') && to.regionMatches(0, from, 0, slash + 1) && hiddenForm(to);
  }

  /** True if the last component of {@code path} has libfuse's hidden form ({@code .fuse_hidden} and 16 hex digits). */
  static boolean hiddenForm(String path) {
    int slash = path == null ? -1 : path.lastIndexOf('/');
    return slash >= 0 && path.length() - slash - 1 == 28
        && HIDDEN.matcher(path).region(slash + 1, path.length()).matches();
  }

  /** Records {@code path} as the hidden name of the open file behind {@code open} (its handles, newest first). */
  void add(String path, List<FileHandle> open) {
    handles.addAll(open);
    names.put(path, List.copyOf(open));
  }

  /** True if {@code h} belongs to a file that already has a hidden name (it was unlinked before). */
  boolean hides(FileHandle h) {
    return handles.contains(h);
  }

  /** A handle of the open file hidden under {@code path}, or null when the path is no hidden name of ours. */
  FileHandle handle(String path) {
    if (path == null || names.isEmpty()) {
      return null;
    }
    List<FileHandle> l = names.get(path);
    return l == null ? null : l.getFirst();
  }

  /** Forgets the hidden name {@code path} (libfuse's unlink after the last release); false if it was not ours. */
  boolean remove(String path) {
    if (path == null || names.isEmpty()) {
      return false;
    }
    List<FileHandle> l = names.remove(path);
    if (l == null) {
      return false;
    }
    l.forEach(handles::remove);
    return true;
  }

  /**
   * Follows the rename of a directory: libfuse computes a hidden node's path from its parents, so the hidden names
   * below {@code from} are asked for under {@code to} from now on.
   */
  void renamed(String from, String to) {
    if (names.isEmpty()) {
      return;
    }
    String prefix = from + "/";
    for (String p : List.copyOf(names.keySet())) {
      if (p.startsWith(prefix)) {
        List<FileHandle> l = names.remove(p);
        if (l != null) {
          names.put(to + p.substring(from.length()), l);
        }
      }
    }
  }

  /** Number of hidden names held (open files unlinked and not yet finally released). */
  int size() {
    return names.size();
  }

  /** Forgets everything (the session ended). */
  void clear() {
    names.clear();
    handles.clear();
  }
}
