package io.ossgw.nfs.fs;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.List;

/**
 * The entries of one READDIR reply, read from the engine page by page ({@link VirtualFileSystem#readdir(String, String,
 * int)}) as the reply fills: after a position, less a number of entries to skip ({@link DirCursors.Page}). Pages grow
 * from {@value #FIRST_PAGE} entries to 1,000, so a small reply asks for little and a 1 MiB one few times; a caller that
 * knows about how many entries its reply holds says so, and the stream asks for that many and then tops up by a
 * quarter of it, so the engine does not read (and number, one inode-table read each) a page of entries the reply has
 * no room for. The first page is read when the stream is made, so a directory that cannot be listed fails there.
 */
public final class DirStream {
  static final int FIRST_PAGE = 128;

  private final VirtualFileSystem fs;
  private final String path;
  private String after;
  private long skip;
  private int pageSize;
  /** The size of the pages after the first, or 0 to double each time. */
  private final int topUp;
  private List<DirEntry> page;
  private int i;
  private boolean eof;

  /**
   * @param after the position the entries follow, or null for the start
   * @param skip entries after it to leave out
   * @throws io.ossgw.core.vfs.FsException from the first page (ENOENT, ENOTDIR, EIO)
   */
  public DirStream(VirtualFileSystem fs, String path, String after, long skip) {
    this(fs, path, after, skip, FIRST_PAGE, 0);
  }

  /**
   * A stream for a reply of about {@code expected} entries: the first page asks for that many (16 to 1,000), later
   * ones for a quarter of it each.
   *
   * @throws io.ossgw.core.vfs.FsException from the first page (ENOENT, ENOTDIR, EIO)
   */
  public DirStream(VirtualFileSystem fs, String path, String after, long skip, int expected) {
    this(fs, path, after, skip, Math.clamp(expected, MIN_PAGE, MAX_PAGE), Math.clamp(expected / 4, MIN_PAGE, MAX_PAGE));
  }

  private static final int MIN_PAGE = 16;
  private static final int MAX_PAGE = 1000;

  private DirStream(VirtualFileSystem fs, String path, String after, long skip, int first, int topUp) {
    this.fs = fs;
    this.path = path;
    this.after = after;
    this.skip = skip;
    this.pageSize = first;
    this.topUp = topUp;
    fill();
  }

  /** The next entry without taking it, or null at the end of the directory. */
  public DirEntry peek() {
    while (i >= page.size()) {
      if (eof) {
        return null;
      }
      fill();
    }
    return page.get(i);
  }

  /** Takes the entry {@link #peek} returned. */
  public DirEntry next() {
    DirEntry e = peek();
    if (e != null) {
      i++;
    }
    return e;
  }

  private void fill() {
    while (true) {
      int ask = (int) Math.min(MAX_PAGE, pageSize + Math.min(skip, MAX_PAGE));
      DirPage p = fs.readdir(path, after, ask);
      after = p.resumeAfter(after);
      eof = p.eof();
      pageSize = topUp > 0 ? topUp : Math.min(MAX_PAGE, pageSize * 2);
      List<DirEntry> entries = p.entries();
      int drop = (int) Math.min(skip, entries.size());
      skip -= drop;
      page = entries.subList(drop, entries.size());
      i = 0;
      if (!page.isEmpty() || eof) {
        return;
      }
    }
  }
}
