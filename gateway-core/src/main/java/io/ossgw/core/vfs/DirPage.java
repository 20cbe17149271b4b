package io.ossgw.core.vfs;

import java.util.List;

/**
 * One page of a directory listing ({@link VirtualFileSystem#readdir(String, String, int)}): entries in position order
 * ({@link DirEntry#position()}, the order OSS lists keys in), without "." and "..".
 *
 * @param entries at most the number asked for; fewer (even none) only at the end of the directory
 * @param eof true when no entry follows the last one of this page
 */
public record DirPage(List<DirEntry> entries, boolean eof) {
  public DirPage {
    entries = List.copyOf(entries);
  }

  /** The position that resumes after this page, or {@code after} itself when the page is empty. */
  public String resumeAfter(String after) {
    return entries.isEmpty() ? after : entries.get(entries.size() - 1).position();
  }

  /**
   * Compares two positions (or names) by Unicode code point, which orders them like the UTF-8 bytes OSS sorts keys by
   * (String's own order differs for characters outside the Basic Multilingual Plane). {@code null} (the start of a
   * listing) sorts before everything.
   */
  public static int compare(String a, String b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        // a surrogate (U+D800..U+DFFF) stands for a code point above U+FFFF: it sorts after every BMP character
        boolean sa = Character.isSurrogate(ca);
        boolean sb = Character.isSurrogate(cb);
        return sa == sb ? Character.compare(ca, cb) : sa ? 1 : -1;
      }
    }
    return Integer.compare(a.length(), b.length());
  }
}
