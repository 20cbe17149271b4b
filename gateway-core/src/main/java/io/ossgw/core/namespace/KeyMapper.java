package io.ossgw.core.namespace;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Maps VFS paths to object keys under the mounted prefix and back (ossfs layout, reference/ossfs-compat.md §3.1): the
 * file {@code /a/b} is the object {@code prefix + "a/b"}, the directory {@code /a} is the marker {@code prefix + "a/"}
 * (or an implicit prefix), the root is the prefix itself.
 */
public final class KeyMapper {
  /** OSS's longest key in bytes. */
  public static final int KEY_MAX = 1023;

  private static final System.Logger LOG = System.getLogger(KeyMapper.class.getName());

  private final String prefix;
  // the first refusal is logged with the limit; later ones only reach the caller (a program walking deep trees would
  // otherwise fill the log with one line per call)
  private final AtomicBoolean tooLongLogged = new AtomicBoolean();

  /** @param prefix "" or a prefix ending in "/" */
  public KeyMapper(String prefix) {
    this.prefix = prefix == null ? "" : prefix;
  }

  public String prefix() {
    return prefix;
  }

  /**
   * The object key of a file or symlink at {@code path} (not the root): at most 1,023 bytes, OSS's limit, as an
   * object written by an SDK may have (only a directory's marker carries a trailing slash, see {@link #dirKey}).
   *
   * @throws FsException ENAMETOOLONG if the key (with the prefix) would exceed 1,023 bytes
   */
  public String fileKey(String path) {
    String key = prefix + path.substring(1);
    if (utf8Length(key) > KEY_MAX) {
      throw tooLong("object key", path);
    }
    return key;
  }

  /**
   * The key prefix of the directory at {@code path}: its marker key, ending in "/" ("" or the prefix for the root).
   *
   * @throws FsException ENAMETOOLONG if the marker key, slash included, would exceed 1,023 bytes
   */
  public String dirKey(String path) {
    if ("/".equals(path)) {
      return prefix;
    }
    String key = dirKeyOrNull(path);
    if (key == null) {
      throw tooLong("directory marker key", path);
    }
    return key;
  }

  /**
   * Like {@link #dirKey} but null when the marker key would exceed 1,023 bytes: no directory can have that path in OSS
   * (a lookup of it is ENOENT, not ENAMETOOLONG, as a file of that name may exist).
   */
  public String dirKeyOrNull(String path) {
    if ("/".equals(path)) {
      return prefix;
    }
    String key = prefix + path.substring(1) + "/";
    return utf8Length(key) > KEY_MAX ? null : key;
  }

  /** ENAMETOOLONG for a path whose key is over {@link #KEY_MAX}; the first one of this mount is logged (issue 12). */
  private FsException tooLong(String what, String path) {
    String msg = what + " longer than OSS's limit of " + KEY_MAX + " bytes (prefix included): " + path;
    if (tooLongLogged.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.WARNING, "ENAMETOOLONG: " + msg + "; paths whose object key is over " + KEY_MAX
          + " bytes are refused (logged once per mount)");
    }
    return new FsException(Errno.ENAMETOOLONG, msg);
  }

  /** UTF-8 length of a key; short keys (3 bytes per char at most, surrogate pairs 4 per 2) skip the encoding. */
  private static int utf8Length(String key) {
    return key.length() * 3 <= KEY_MAX ? key.length() : key.getBytes(StandardCharsets.UTF_8).length;
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
