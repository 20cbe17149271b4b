package io.ossgw.core.namespace;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.nio.charset.StandardCharsets;

/**
 * Maps VFS paths to object keys under the mounted prefix and back (ossfs layout, reference/ossfs-compat.md §3.1): the
 * file {@code /a/b} is the object {@code prefix + "a/b"}, the directory {@code /a} is the marker {@code prefix + "a/"}
 * (or an implicit prefix), the root is the prefix itself.
 */
public final class KeyMapper {
  /** OSS's longest key in bytes. */
  public static final int KEY_MAX = 1023;

  private final String prefix;

  /** @param prefix "" or a prefix ending in "/" */
  public KeyMapper(String prefix) {
    this.prefix = prefix == null ? "" : prefix;
  }

  public String prefix() {
    return prefix;
  }

  /**
   * The object key of a file or symlink at {@code path} (not the root).
   *
   * @throws FsException ENAMETOOLONG if the key (with the prefix and a trailing slash for directories) would exceed
   *     1023 bytes
   */
  public String fileKey(String path) {
    String key = prefix + path.substring(1);
    if (key.length() + 1 > KEY_MAX / 4 && key.getBytes(StandardCharsets.UTF_8).length + 1 > KEY_MAX) {
      throw new FsException(Errno.ENAMETOOLONG, "object key longer than 1023 bytes: " + path);
    }
    return key;
  }

  /** The key prefix of the directory at {@code path}: its marker key, ending in "/" ("" or the prefix for the root). */
  public String dirKey(String path) {
    return "/".equals(path) ? prefix : fileKey(path) + "/";
  }

  /** The path of a key under the prefix (a trailing slash is dropped), or null if the key is outside it. */
  public String pathOf(String key) {
    if (!key.startsWith(prefix)) {
      return null;
    }
    String rest = key.substring(prefix.length());
    if (rest.endsWith("/")) {
      rest = rest.substring(0, rest.length() - 1);
    }
    return "/" + rest;
  }
}
