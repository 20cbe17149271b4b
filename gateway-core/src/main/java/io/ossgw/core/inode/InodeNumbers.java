package io.ossgw.core.inode;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.ForwardingFileSystem;
import io.ossgw.core.vfs.MovedNames;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reports the {@link InodeTable}'s numbers as {@link FileAttr#ino()} of every attribute the wrapped engine returns, and
 * keeps the table up to date with the renames and removals made through it: so a file's {@code st_ino} (FUSE with
 * {@code use_ino}, Samba's server inode number over FUSE) stays the same across {@code rename} (of the file or of a
 * directory above it) and, with a table file, across a restart. Issue 12 item 2.
 *
 * <p>The bare engine's number (a hash of the object key) is the table's preferred number for a path it has not seen,
 * so numbers are unchanged for objects never renamed. An open file keeps the number it was opened (or first stat-ed)
 * with, also once its name was unlinked (fstat answers from the handle). Changes made by other clients to the bucket
 * are not seen: a name renamed elsewhere is a new name here, with the number of its new key.
 */
public final class InodeNumbers extends ForwardingFileSystem {
  /** Bound around a call whose caller reports the object's number from its own table ({@link #unnumbered}). */
  private static final ScopedValue<Boolean> UNNUMBERED = ScopedValue.newInstance();
  private final InodeTable table;
  private final ConcurrentHashMap<FileHandle, Long> open = new ConcurrentHashMap<>();

  /**
   * @param fs the engine's file system (its numbers are hashes of object keys)
   * @param table the table; closed with this file system
   */
  public InodeNumbers(VirtualFileSystem fs, InodeTable table) {
    super(fs);
    this.table = table;
  }

  /**
   * Runs {@code call} (a {@code getattr} of a path through this file system, or a call that makes one) without looking
   * up the table's number: the attributes it returns carry the engine's own number (the hash of the object key), not
   * the table's. For a caller that reports the number it already holds, as NFS does with the fileid of the handle it
   * resolved (GETATTR, READ, WRITE and every post-op attribute): with a cluster store each lookup is a store round trip
   * ({@code ossgw.cluster.store}), so an NFS call by handle asks the store once (for the handle) instead of two or three
   * times. Nothing is recorded or skipped otherwise: a name first seen inside such a call is recorded at its next
   * numbered stat, lookup or open (an NFS LOOKUP, CREATE, RENAME or REMOVE makes one before it gives out or changes a
   * handle). Exceptions pass through unchanged.
   *
   * @return what {@code call} returns
   */
  public static <T> T unnumbered(Supplier<T> call) {
    return ScopedValue.where(UNNUMBERED, Boolean.TRUE).call(call::get);
  }

  private long number(String path, long preferred) {
    return table.numberOf(InodeTable.ENGINE_SPACE, path, preferred);
  }

  private FileAttr numbered(String path, FileAttr a) {
    return a == null ? null : a.withIno(number(path, a.ino()));
  }

  private static String child(String dir, String name) {
    return dir.equals("/") ? "/" + name : dir + "/" + name;
  }

  @Override
  public FileAttr getattr(String path) {
    if (UNNUMBERED.isBound()) {
      return fs.getattr(path);
    }
    return numbered(path, fs.getattr(path));
  }

  @Override
  public FileAttr getattrBeforeCreate(String path) {
    if (UNNUMBERED.isBound()) {
      return fs.getattrBeforeCreate(path);
    }
    return numbered(path, fs.getattrBeforeCreate(path));
  }

  /**
   * Each entry's number as the table would give it, without recording names that are only listed (a listing of a
   * million names writes nothing): a name is recorded when it is first looked up, stat-ed or opened, and gets the number
   * the listing showed ({@link InodeTable#numberIfFirstSeen}).
   */
  @Override
  public DirPage readdir(String path, String after, int maxEntries) {
    DirPage p = fs.readdir(path, after, maxEntries);
    List<DirEntry> entries = p.entries();
    List<DirEntry> out = null; // copied only once an entry's number differs (most pages pass as they are)
    for (int i = 0; i < entries.size(); i++) {
      DirEntry e = entries.get(i);
      long n = table.numberIfFirstSeen(InodeTable.ENGINE_SPACE, child(path, e.name()), e.attr().ino());
      if (n != e.attr().ino() && out == null) {
        out = new ArrayList<>(entries.subList(0, i));
      }
      if (out != null) {
        out.add(e.withAttr(e.attr().withIno(n)));
      }
    }
    return out == null ? p : new DirPage(out, p.eof());
  }

  @Override
  public FileHandle open(String path, OpenFlags flags, Caller caller) {
    FileHandle h = fs.open(path, flags, caller);
    Long n = table.known(InodeTable.ENGINE_SPACE, path); // the kernel looked the name up before opening it
    if (n != null) {
      open.put(h, n);
    }
    return h;
  }

  @Override
  public void release(FileHandle handle) {
    open.remove(handle);
    fs.release(handle);
  }

  @Override
  public FileAttr fgetattr(FileHandle handle) {
    FileAttr a = fs.fgetattr(handle);
    Long n = open.get(handle);
    if (n == null) {
      if (a.nlink() == 0) {
        // unlinked before anything asked for its number: the table no longer holds the name
        return a;
      }
      n = number(handle.path(), a.ino());
      open.put(handle, n);
    }
    return a.withIno(n);
  }

  @Override
  public FileAttr mkdir(String path, int mode, Caller caller) {
    return numbered(path, fs.mkdir(path, mode, caller));
  }

  @Override
  public FileAttr symlink(String target, String linkPath, Caller caller) {
    return numbered(linkPath, fs.symlink(target, linkPath, caller));
  }

  @Override
  public FileAttr mknod(String path, FileType type, int mode, long rdev, Caller caller) {
    return numbered(path, fs.mknod(path, type, mode, rdev, caller));
  }

  @Override
  public FileAttr setattr(String path, SetAttr changes, FileHandle handle, Caller caller) {
    FileAttr a = fs.setattr(path, changes, handle, caller);
    Long n = handle == null ? null : open.get(handle);
    if (n != null) {
      return a.withIno(n);
    }
    String p = path != null ? path : handle != null ? handle.path() : null;
    return p == null || a.nlink() == 0 ? a : numbered(p, a);
  }

  @Override
  public void unlink(String path) {
    fs.unlink(path);
    table.removed(InodeTable.ENGINE_SPACE, path);
  }

  @Override
  public void rmdir(String path) {
    fs.rmdir(path);
    table.removed(InodeTable.ENGINE_SPACE, path);
  }

  /**
   * Renames, then moves the table's entries with the names. A listing shows numbers without recording them ({@link
   * #readdir}), and an entry the table does not hold would not move: after the rename it would show the hash of its
   * new key, another number than the one {@code ls -i}, Samba or an NFS client saw (found by hand over FUSE). So
   * {@code from} is recorded first (one stat, from the engine's cache), and every name a directory rename moves is
   * recorded under its old path with the number of its old key as the engine reports it ({@link MovedNames}: one
   * listing page at a time, no request of its own; nothing is held here), so the table's move takes it along with the
   * names already recorded. A {@code from} that cannot be read is left to the rename to report. When the rename
   * fails half-way the table is not moved: the names that did move show their new keys' numbers, as after a rename
   * by another client.
   */
  @Override
  public void rename(String from, String to) {
    try {
      table.numberOf(InodeTable.ENGINE_SPACE, from, fs.getattr(from).ino());
    } catch (FsException e) {
      // missing or unreadable: the rename below answers for it
    }
    MovedNames.collecting((oldPath, number) -> table.numberOf(InodeTable.ENGINE_SPACE, oldPath, number),
        () -> fs.rename(from, to));
    table.renamed(InodeTable.ENGINE_SPACE, from, to);
  }

  /** Closes the engine's file system, then commits and closes the table. */
  @Override
  public void close() {
    try {
      fs.close();
    } finally {
      table.close();
    }
  }

  /** Tests only: closes the table as a crash would (nothing uncommitted is written). */
  public void crashTable() {
    table.closeImmediately();
  }
}
