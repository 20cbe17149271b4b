package io.ossgw.core.namespace;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.nio.charset.StandardCharsets;

/**
 * Helpers for VFS paths: absolute, {@code "/"}-separated, no trailing slash, {@code "/"} for the root.
 * Components longer than {@link #NAME_MAX} bytes of UTF-8 are refused with ENAMETOOLONG (POSIX NAME_MAX).
 */
public final class VPaths {
  /** Longest path component in bytes (NAME_MAX). */
  public static final int NAME_MAX = 255;

  private VPaths() {}

  /** The parent of a non-root path ({@code "/a/b" -> "/a"}, {@code "/a" -> "/"}). */
  public static String parent(String path) {
    int i = path.lastIndexOf('/');
    return i <= 0 ? "/" : path.substring(0, i);
  }

  /** The last component ({@code "/a/b" -> "b"}); "" for the root. */
  public static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** {@code dir + "/" + name}. */
  public static String child(String dir, String name) {
    return "/".equals(dir) ? "/" + name : dir + "/" + name;
  }

  public static boolean isRoot(String path) {
    return "/".equals(path);
  }

  /** True if {@code path} is {@code ancestor} or lies below it. */
  public static boolean isSameOrBelow(String path, String ancestor) {
    if ("/".equals(ancestor)) {
      return true;
    }
    return path.equals(ancestor) || path.startsWith(ancestor + "/");
  }

  /**
   * Checks the form of a path and the length of its components.
   *
   * @throws FsException EINVAL for a malformed path (relative, trailing slash, empty, "." or ".." components);
   *     ENAMETOOLONG for a component over 255 bytes
   */
  public static String check(String path) {
    if (path == null || path.isEmpty() || path.charAt(0) != '/') {
      throw new FsException(Errno.EINVAL, "not an absolute path: " + path);
    }
    if ("/".equals(path)) {
      return path;
    }
    int start = 1;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = path.length();
      }
      String comp = path.substring(start, end);
      if (comp.isEmpty() || ".".equals(comp) || "..".equals(comp)) {
        throw new FsException(Errno.EINVAL, "malformed path: " + path);
      }
      if (comp.length() > NAME_MAX / 3 && comp.getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
        throw new FsException(Errno.ENAMETOOLONG, "name longer than 255 bytes: " + comp);
      }
      start = end + 1;
    }
    return path;
  }
}
