package io.ossgw.nfs.handle;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.xdr.nfs_fh3;

/**
 * Gives out file handles (NFSv3 and NFSv4.1 alike) and resolves them against the persistent {@link InodeTable}.
 *
 * <p>Rule, the same for every procedure that gives out a handle (READDIRPLUS, LOOKUP, CREATE, v4 LOOKUP/OPEN/READDIR),
 * so that one object gets the same handle from all of them while the table is unchanged: a file (not a directory)
 * whose path the table has not recorded, whose fileid would be its preferred number (no table entry for that number
 * at all, live or removed), whose parent directory is recorded and whose name fits {@link FileHandles#MAX_NAME}
 * bytes gets a named handle and nothing is written; anything else is recorded ({@link InodeTable#idOf}) and gets a
 * recorded handle. A recorded path stays recorded, so its handle never changes back. Directories are always
 * recorded: they are the parents named handles point at, and few.
 *
 * <p>A named handle resolves to the fileid's recorded path if the table recorded the fileid since (a rename or removal
 * through the gateway records the object first, so the handle follows the rename, or turns stale, as a recorded one
 * does), else to its parent's current path and its name, unless the table has that path under another fileid. A file
 * renamed through the gateway keeps its named handle: a later LOOKUP of its new name answers the same bytes, since the
 * Linux client keys its inodes by handle and would otherwise keep two page caches of one file (stale reads, found by
 * fsx_diff over the kernel client). With a cluster store the new name answers a recorded handle instead. Files below a
 * directory renamed through the gateway keep their named handles with nothing recorded here: their names and their
 * parent's number stay, and so does their preferred number, the engine's, which follows the rename ({@code
 * io.ossgw.core.inode.InodeNumbers#rename}).
 */
public final class HandleIssuer {
  private final InodeTable table;
  private final FileHandles format;

  /** A handle given out and the fileid it carries. */
  public record Issued(long fileid, nfs_fh3 handle) {}

  public HandleIssuer(InodeTable table, FileHandles format) {
    this.table = table;
    this.format = format;
  }

  /**
   * The handle of an object at {@code path} (within export {@code space}) with attributes {@code a}, by the rule
   * above; records the path in the table unless it gets a named handle. Looks the parent directory up when the rule
   * needs it: a caller that gives handles to several entries of one directory takes {@link #parentOf} once and calls
   * {@link #issue(int, String, FileAttr, Long)}.
   */
  public Issued issue(int space, String path, FileAttr a) {
    if (!a.isDirectory() && !VPaths.isRoot(path)) {
      return issue(space, path, a, table.known(space, VPaths.parent(path)));
    }
    long[] id = table.idOf(space, path, a.ino());
    return new Issued(id[0], format.encode(space, id[0], (int) id[1]));
  }

  /**
   * As {@link #issue(int, String, FileAttr)} with the parent directory's number already known: one table read for a
   * file (one store request with a cluster store), none more unless the path is recorded now.
   *
   * @param parent the live number of {@code VPaths.parent(path)} ({@link #parentOf}, or the number of a directory
   *     handle just resolved), or null if the table does not record it (the file then gets a recorded handle)
   */
  public Issued issue(int space, String path, FileAttr a, Long parent) {
    if (!a.isDirectory() && !VPaths.isRoot(path) && parent != null) {
      InodeTable.FirstSeen f = table.firstSeen(space, path, a.ino());
      if (f.generation() > 0) { // recorded: its handle as it was given
        return recorded(space, f.number(), f.generation());
      }
      nfs_fh3 fh = named(space, path, f, parent);
      if (fh != null) {
        return new Issued(f.number(), fh);
      }
    }
    long[] id = table.idOf(space, path, a.ino());
    return recorded(space, id[0], (int) id[1]);
  }

  /**
   * The named handle of a file not recorded, seen as {@code f} in the recorded directory {@code parent}: only when its
   * number is fresh (neither this path's nor anyone's, so it would be recorded at generation 1) and its name fits;
   * else null.
   */
  private nfs_fh3 named(int space, String path, InodeTable.FirstSeen f, long parent) {
    return f.fresh() ? format.encodeNamed(space, f.number(), parent, VPaths.name(path)) : null;
  }

  /**
   * The handle of a recorded object: the named handle it was given before it was recorded, if the table kept one
   * ({@link #recordBeforeChange}; generation 1 only, so never for a new object at a removed one's number), else the
   * recorded form.
   */
  private Issued recorded(int space, long fileid, int generation) {
    InodeTable.NamedOrigin o = generation == 1 ? table.namedOrigin(space, fileid) : null;
    nfs_fh3 fh = o == null ? null : format.encodeNamed(space, fileid, o.parent(), o.name());
    return new Issued(fileid, fh != null ? fh : format.encode(space, fileid, generation));
  }

  /**
   * The live number of directory {@code dir} for {@link #issue(int, String, FileAttr, Long)}, or null if the table
   * does not record it: one table read, taken once per reply that lists or makes entries of the directory.
   */
  public Long parentOf(int space, String dir) {
    return table.known(space, dir);
  }

  /**
   * The current path a decoded handle of export {@code space} names, or null if it is stale (removed, replaced, its
   * generation changed, its parent directory gone).
   */
  public String pathOf(int space, FileHandles.Decoded d) {
    InodeTable.Entry e = d.name() == null ? table.resolve(space, d.fileid())
        : table.resolveNamed(space, d.fileid(), d.parentFileid(), d.name()); // one table read, as a recorded one
    return e != null && e.path() != null && e.generation() == d.generation() ? e.path() : null;
  }

  /**
   * Where a handle resolved to {@code path} leads once the renames in progress of that path (or a directory above it)
   * are done, when its object was found missing there: the new path if a rename moved it, else null (it is gone).
   * Waits for those renames ({@link io.ossgw.nfs.fs.NameChanges#settle}).
   */
  public String movedTo(int space, FileHandles.Decoded d, String path, io.ossgw.nfs.fs.NameChanges renames) {
    renames.settle(space, path);
    String now = pathOf(space, d);
    return now != null && !now.equals(path) ? now : null;
  }

  /**
   * Records an object before the gateway removes or renames it, so that its fileid gets a tombstone (its handles turn
   * stale and a new object at the name gets the next generation) or follows it to the new name. A file that had a
   * named handle keeps it: the table remembers its parent and name, and {@link #issue} gives that handle for the
   * fileid from then on (one object, one handle, so the Linux client keeps one inode and one page cache for it).
   */
  public void recordBeforeChange(int space, String path, FileAttr a) {
    if (!a.isDirectory() && !VPaths.isRoot(path)) {
      Long parent = table.known(space, VPaths.parent(path));
      InodeTable.FirstSeen f = parent == null ? null : table.firstSeen(space, path, a.ino());
      if (f != null && named(space, path, f, parent) != null) { // the handle it has had: keep it
        long[] id = table.idOf(space, path, a.ino()); // the number f gave, at generation 1
        table.rememberNamed(space, id[0], parent, VPaths.name(path));
        return;
      }
    }
    table.idOf(space, path, a.ino());
  }
}
