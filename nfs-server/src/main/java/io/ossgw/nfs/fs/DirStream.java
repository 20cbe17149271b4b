package io.ossgw.nfs.fs;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.List;

/**
 * The entries of one READDIR reply, read from the engine page by page ({@link VirtualFileSystem#readdir(String, String,
 * int)}) as the reply fills: after a position, less a number of entries to skip ({@link DirCursors.Page}). Pages grow
 * from {@value #FIRST_PAGE} entries to 1,000, so a small reply asks for little and a 1 MiB one few times. The first
 * page is read when the stream is made, so a directory that cannot be listed fails there.
 */
public final class DirStream {
  static final int FIRST_PAGE = 128;

  private final VirtualFileSystem fs;
  private final String path;
  private String after;
  private long skip;
  private int pageSize = FIRST_PAGE;
  private List<DirEntry> page;
  private int i;
  private boolean eof;

  /**
   * @param after the position the entries follow, or null for the start
   * @param skip entries after it to leave out
   * @throws io.ossgw.core.vfs.FsException from the first page (ENOENT, ENOTDIR, EIO)
   */
  public DirStream(VirtualFileSystem fs, String path, String after, long skip) {
    this.fs = fs;
    this.path = path;
    this.after = after;
    this.skip = skip;
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
      int ask = (int) Math.min(1000, pageSize + Math.min(skip, 1000));
      DirPage p = fs.readdir(path, after, ask);
      after = p.resumeAfter(after);
      eof = p.eof();
      pageSize = Math.min(1000, pageSize * 2);
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
