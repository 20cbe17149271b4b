package io.ossgw.fuse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mount table of this process's mount namespace, from {@code /proc/self/mountinfo} (proc(5)). Each line is
 *
 * <pre>
 * 36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * (1)(2)(3)   (4)   (5)        (6)       (7)     (8) (9)  (10)      (11)
 * </pre>
 *
 * with optional fields (7) ending at the {@code -} separator. Paths and the source are written with octal escapes
 * for space ({@code \040}), tab ({@code \011}), newline ({@code \012}) and backslash ({@code \134}); {@link
 * #unescape} decodes them as bytes, so UTF-8 names come out right.
 */
public final class MountInfo {
  /** The file read by {@link #read()}. */
  public static final Path PROC_SELF_MOUNTINFO = Path.of("/proc/self/mountinfo");

  /**
   * One mount.
   *
   * @param mountId unique id of the mount (reused only after it is unmounted)
   * @param parentId id of the parent mount
   * @param device {@code major:minor} of the filesystem (field 3, {@code st_dev} of files in it); for FUSE a number
   *     of the kernel's anonymous-device pool that belongs to one FUSE connection while its superblock lives, and
   *     is handed to the next such filesystem once it is gone
   * @param root the path within the filesystem that forms the root of this mount
   * @param mountPoint the mount point, decoded
   * @param options per-mount options ({@code rw,nosuid,...})
   * @param fsType filesystem type, e.g. {@code fuse.ossgw} or {@code fuse}
   * @param source the source, e.g. {@code oss:bucket} (the FUSE {@code fsname}), decoded
   * @param superOptions per-superblock options ({@code user_id=0,group_id=0,...} for FUSE)
   */
  public record Entry(
      int mountId,
      int parentId,
      String device,
      String root,
      String mountPoint,
      String options,
      String fsType,
      String source,
      String superOptions) {

    /** True for FUSE mounts ({@code fuse}, {@code fuse.<subtype>}, {@code fuseblk}). */
    public boolean isFuse() {
      return fsType.equals("fuse") || fsType.startsWith("fuse.") || fsType.equals("fuseblk");
    }
  }

  private MountInfo() {}

  /**
   * Reads and parses {@link #PROC_SELF_MOUNTINFO}.
   *
   * @throws UncheckedIOException if it cannot be read (not Linux, or /proc not mounted)
   */
  public static List<Entry> read() {
    try {
      return parse(Files.readString(PROC_SELF_MOUNTINFO, StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + PROC_SELF_MOUNTINFO, e);
    }
  }

  /**
   * Parses mountinfo text. The text must be decoded as ISO-8859-1 (one char per byte) so that {@link #unescape} can
   * reassemble UTF-8 byte sequences; malformed lines are skipped.
   */
  public static List<Entry> parse(String text) {
    List<Entry> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      Entry e = parseLine(line);
      if (e != null) {
        out.add(e);
      }
    }
    return out;
  }

  /** The last (topmost) mount at {@code mountPoint}, compared as decoded absolute path strings. */
  public static Optional<Entry> find(List<Entry> entries, String mountPoint) {
    Entry found = null;
    for (Entry e : entries) {
      if (e.mountPoint().equals(mountPoint)) {
        found = e; // later lines are mounted on top of earlier ones
      }
    }
    return Optional.ofNullable(found);
  }

  /** The mount with id {@code mountId}, if it is still mounted. */
  public static Optional<Entry> byId(List<Entry> entries, int mountId) {
    return entries.stream().filter(e -> e.mountId() == mountId).findFirst();
  }

  static Entry parseLine(String line) {
    String[] f = line.trim().split(" ");
    int dash = -1;
    for (int i = 6; i < f.length; i++) {
      if (f[i].equals("-")) {
        dash = i;
        break;
      }
    }
    if (f.length < 10 || dash < 0 || dash + 3 > f.length) {
      return null;
    }
    try {
      return new Entry(
          Integer.parseInt(f[0]),
          Integer.parseInt(f[1]),
          f[2],
          unescape(f[3]),
          unescape(f[4]),
          f[5],
          f[dash + 1],
          unescape(f[dash + 2]),
          dash + 3 < f.length ? f[dash + 3] : "");
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * Decodes the kernel's {@code \ooo} octal escapes (fs/proc_namespace.c {@code mangle}). The input holds one char
   * per byte (ISO-8859-1); the decoded bytes are read as UTF-8.
   */
  public static String unescape(String s) {
    byte[] out = new byte[s.length()];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && isOctal(s, i + 1)) {
        out[n++] = (byte) Integer.parseInt(s.substring(i + 1, i + 4), 8);
        i += 3;
      } else {
        out[n++] = (byte) c;
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  /**
   * Encodes a path the way the kernel writes it into mountinfo: space, tab, newline and backslash as octal escapes,
   * and every other byte of its UTF-8 form as one ISO-8859-1 char. Inverse of {@link #unescape}.
   */
  public static String escape(String path) {
    StringBuilder sb = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c == ' ' || c == '\t' || c == '\n' || c == '\\') {
        sb.append('\\').append((char) ('0' + (c >> 6))).append((char) ('0' + ((c >> 3) & 7))).append((char) ('0' + (c & 7)));
      } else {
        sb.append((char) c);
      }
    }
    return sb.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return true;
  }
}
