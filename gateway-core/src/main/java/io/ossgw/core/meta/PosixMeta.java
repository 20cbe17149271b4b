package io.ossgw.core.meta;

import io.ossgw.core.store.ListedObject;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads and writes POSIX attributes in ossfs's user metadata (reference/ossfs-compat.md §3.1, ossfs
 * {@code src/metaheader.cpp}): {@code x-oss-meta-mode} (decimal st_mode), {@code -uid}, {@code -gid},
 * {@code -mtime}/{@code -ctime}/{@code -atime} ({@code sec} or {@code sec.nnnnnnnnn}), {@code -rdev} of devices
 * (ours: ossfs does not store it), and symlink targets in
 * {@code x-oss-meta-symlink-target: header:<len>:<urlencoded>}.
 *
 * <p>Objects without metadata get ossfs's defaults: 0640 for files, 0750 for directories, the mounting user's ids,
 * times from Last-Modified. {@code uid=}, {@code gid=} and {@code umask=} apply on top, as in ossfs.
 */
public final class PosixMeta {
  public static final String MODE = "mode";
  public static final String UID = "uid";
  public static final String GID = "gid";
  public static final String MTIME = "mtime";
  public static final String CTIME = "ctime";
  public static final String ATIME = "atime";
  public static final String SYMLINK_TARGET = "symlink-target";
  /**
   * {@code x-oss-meta-rdev}: st_rdev of a character or block device, decimal (Linux {@code makedev} encoding). ossfs
   * 1.91.10's mknod stores only the mode ({@code create_file_object}), so its devices read back with rdev 0; ossfs
   * ignores this header and keeps it through its own metadata copies.
   */
  public static final String RDEV = "rdev";

  private static final Map<String, String> KNOWN_NAMES = Map.of(MODE, MODE, UID, UID, GID, GID, MTIME, MTIME, CTIME,
      CTIME, ATIME, ATIME, SYMLINK_TARGET, SYMLINK_TARGET, RDEV, RDEV);

  /**
   * User metadata in its smallest form for the caches: an immutable map (one array) whose ossfs names ({@code mode},
   * {@code uid}, ...) are the shared constants instead of a String of their own per object. A HEAD's response gives a
   * HashMap of a few hundred bytes; a listing of 100,000 objects keeps 100,000 of them (issue 21).
   */
  public static Map<String, String> compact(Map<String, String> userMeta) {
    if (userMeta == null || userMeta.isEmpty()) {
      return userMeta == null ? null : Map.of();
    }
    @SuppressWarnings("unchecked")
    Map.Entry<String, String>[] entries = new Map.Entry[userMeta.size()];
    int i = 0;
    for (Map.Entry<String, String> e : userMeta.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        return userMeta;
      }
      entries[i++] = Map.entry(KNOWN_NAMES.getOrDefault(e.getKey(), e.getKey()), e.getValue());
    }
    return Map.ofEntries(entries);
  }

  private final int defaultUid;
  private final int defaultGid;
  private final Integer uidOverride;
  private final Integer gidOverride;
  private final int umask;

  /**
   * @param defaultUid owner of objects without {@code x-oss-meta-uid}
   * @param uidOverride {@code uid=} or null
   * @param umask {@code umask=} (octal bits removed from every mode shown)
   */
  public PosixMeta(int defaultUid, int defaultGid, Integer uidOverride, Integer gidOverride, int umask) {
    this.defaultUid = defaultUid;
    this.defaultGid = defaultGid;
    this.uidOverride = uidOverride;
    this.gidOverride = gidOverride;
    this.umask = umask;
  }

  /**
   * Attributes of an object seen by HEAD (or written by us).
   *
   * @param key the object key; a trailing slash means a directory marker
   */
  public FileAttr fromHead(String key, ObjectInfo info) {
    Map<String, String> m = info.userMeta();
    boolean slash = key.endsWith("/");
    FileType type = typeOf(slash, m, info.contentType());
    int mode = permissions(m, type);
    Instant lm = info.lastModified() == null ? Instant.EPOCH : info.lastModified();
    long size = type == FileType.DIRECTORY ? FileAttr.DIRECTORY_SIZE : info.size();
    Instant mtime = time(m.get(MTIME), lm);
    Instant ctime = time(m.get(CTIME), lm);
    if ("Appendable".equalsIgnoreCase(info.objectType())) {
      // AppendObject cannot update user metadata: the object grew at Last-Modified, whatever x-oss-meta-mtime says
      mtime = mtime.isAfter(lm) ? mtime : lm;
      ctime = ctime.isAfter(lm) ? ctime : lm;
    }
    long rdev = type.device() ? parseLong(m.get(RDEV)) : 0;
    return new FileAttr(Inodes.of(key), type, mode & ~umask, uid(m), gid(m), size,
        time(m.get(ATIME), lm), mtime, ctime, info.etag(), rdev, FileAttr.defaultLinks(type));
  }

  /** Attributes from a listing entry alone (no user metadata): ossfs's defaults, times from LastModified. */
  public FileAttr fromListing(ListedObject o) {
    boolean slash = o.key().endsWith("/");
    FileType type = slash ? FileType.DIRECTORY : FileType.REGULAR;
    Instant lm = o.lastModified() == null ? Instant.EPOCH : o.lastModified();
    long size = slash ? FileAttr.DIRECTORY_SIZE : o.size();
    int mode = type == FileType.DIRECTORY ? 0750 : 0640;
    return new FileAttr(Inodes.of(o.key()), type, mode & ~umask, uid(Map.of()), gid(Map.of()), size, lm, lm, lm, o.etag());
  }

  /** Attributes of an implicit directory (a prefix with no marker): 0750, times {@code when}. */
  public FileAttr implicitDir(String dirKey, Instant when) {
    return new FileAttr(Inodes.of(dirKey), FileType.DIRECTORY, 0750 & ~umask, uid(Map.of()), gid(Map.of()),
        FileAttr.DIRECTORY_SIZE, when, when, when, null);
  }

  private static FileType typeOf(boolean slash, Map<String, String> m, String contentType) {
    Integer mode = parseInt(m.get(MODE));
    if (mode != null) {
      FileType t = FileType.fromMode(mode);
      if (t != null) {
        return slash ? FileType.DIRECTORY : t;
      }
    }
    if (slash || "application/x-directory".equals(contentType) || "httpd/unix-directory".equals(contentType)) {
      return FileType.DIRECTORY;
    }
    if (m.containsKey(SYMLINK_TARGET)) {
      return FileType.SYMLINK;
    }
    return FileType.REGULAR;
  }

  private static int permissions(Map<String, String> m, FileType type) {
    Integer mode = parseInt(m.get(MODE));
    if (mode == null) {
      mode = parseInt(m.get("permissions")); // s3sync
    }
    if (mode == null && m.get("goog-reserved-posix-mode") != null) {
      try {
        mode = Integer.parseInt(m.get("goog-reserved-posix-mode").strip(), 8);
      } catch (NumberFormatException e) {
        mode = null;
      }
    }
    if (mode == null) {
      return switch (type) {
        case DIRECTORY -> 0750;
        case SYMLINK -> 0777;
        case REGULAR -> 0640;
        case FIFO, CHARACTER_DEVICE, BLOCK_DEVICE, SOCKET -> 0644; // ossfs get_mode's default for special files
      };
    }
    return mode & 07777;
  }

  private int uid(Map<String, String> m) {
    if (uidOverride != null) {
      return uidOverride;
    }
    Integer v = parseInt(m.get(UID));
    if (v == null) {
      v = parseInt(m.get("owner"));
    }
    return v == null ? defaultUid : v;
  }

  private int gid(Map<String, String> m) {
    if (gidOverride != null) {
      return gidOverride;
    }
    Integer v = parseInt(m.get(GID));
    if (v == null) {
      v = parseInt(m.get("group"));
    }
    return v == null ? defaultGid : v;
  }

  private static long parseLong(String s) {
    if (s == null || s.isBlank()) {
      return 0;
    }
    try {
      return Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Integer parseInt(String s) {
    if (s == null || s.isBlank()) {
      return null;
    }
    try {
      return (int) Long.parseLong(s.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Parses ossfs's {@code sec} or {@code sec.nnnnnnnnn}; falls back to {@code def}. */
  static Instant time(String s, Instant def) {
    if (s == null || s.isBlank()) {
      return def;
    }
    try {
      String v = s.strip();
      int dot = v.indexOf('.');
      if (dot < 0) {
        return Instant.ofEpochSecond(Long.parseLong(v));
      }
      String frac = (v.substring(dot + 1) + "000000000").substring(0, 9);
      return Instant.ofEpochSecond(Long.parseLong(v.substring(0, dot)), Long.parseLong(frac));
    } catch (NumberFormatException | java.time.DateTimeException e) {
      return def;
    }
  }

  /** Formats a time as ossfs's {@code str(timespec)}: {@code sec} or {@code sec.nnnnnnnnn}. */
  public static String formatTime(Instant t) {
    if (t.getNano() == 0) {
      return Long.toString(t.getEpochSecond());
    }
    // "%d.%09d" without java.util.Formatter (three of these go with every upload's metadata)
    String nanos = Integer.toString(t.getNano());
    StringBuilder sb = new StringBuilder(30).append(t.getEpochSecond()).append('.');
    for (int i = nanos.length(); i < 9; i++) {
      sb.append('0');
    }
    return sb.append(nanos).toString();
  }

  /**
   * The user metadata for a write: {@code base} (metadata to keep, e.g. xattrs) with the POSIX fields of {@code a}
   * replacing their old values.
   */
  public static Map<String, String> encode(FileAttr a, Map<String, String> base) {
    Map<String, String> m = new HashMap<>(base == null ? Map.of() : base);
    m.put(MODE, Integer.toString(a.stMode()));
    m.put(UID, Integer.toString(a.uid()));
    m.put(GID, Integer.toString(a.gid()));
    m.put(MTIME, formatTime(a.mtime()));
    m.put(CTIME, formatTime(a.ctime()));
    m.put(ATIME, formatTime(a.atime()));
    if (a.type().device()) {
      m.put(RDEV, Long.toString(a.rdev()));
    }
    return m;
  }

  /** The WriteMeta of a directory marker. */
  public static WriteMeta dirMeta(FileAttr a, Map<String, String> base) {
    return new WriteMeta(WriteMeta.DIRECTORY, encode(a, base));
  }

  /** The symlink-target header value: {@code header:<byte length>:<percent-encoded target>}. */
  public static String encodeSymlinkTarget(String target) {
    byte[] b = target.getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder("header:").append(b.length).append(':');
    for (byte x : b) {
      int c = x & 0xff;
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-_.~/".indexOf(c) >= 0) {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
    return sb.toString();
  }

  /** Decodes {@link #encodeSymlinkTarget}; null if the value is not in the header form (e.g. {@code body::}). */
  public static String decodeSymlinkTarget(String value) {
    if (value == null || !value.startsWith("header:")) {
      return null;
    }
    int colon = value.indexOf(':', 7);
    if (colon < 0) {
      return null;
    }
    String enc = value.substring(colon + 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < enc.length(); i++) {
      char c = enc.charAt(i);
      if (c == '%' && i + 2 < enc.length()) {
        out.write(Integer.parseInt(enc.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.write(c); // the encoded form is ASCII
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
