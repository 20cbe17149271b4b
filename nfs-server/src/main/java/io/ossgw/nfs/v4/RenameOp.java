package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.Entries;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.RENAME4args;
import io.ossgw.nfs.v4.xdr.RENAME4resok;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * RENAME (RFC 8881 §18.26): {@code oldname} in the saved filehandle's directory becomes {@code newname} in the current
 * filehandle's, by the engine's rename (files: CopyObject + DeleteObject; directories: every object below copied, not
 * atomic). Handles follow the object, as in v3.
 *
 * <p>Errors, in this order: no saved filehandle NFS4ERR_NOFILEHANDLE; the two directories in different file systems
 * (two exports, or an export and the pseudo file system) NFS4ERR_XDEV; the names' ({@link Component4#check}); both in
 * the pseudo file system NFS4ERR_ROFS; each directory's checks ({@link ChangedDir#of}); no {@code oldname}
 * NFS4ERR_NOENT; a sticky source directory the caller may not rename from NFS4ERR_PERM; a directory moved into itself
 * NFS4ERR_INVAL; an existing target the sticky bit guards from the caller NFS4ERR_PERM, a directory moved to another
 * parent without write permission on it NFS4ERR_ACCESS ({@link Permissions#renameRefusal}); a target that exists and is
 * not compatible (a directory over a non-directory or the reverse) or is a non-empty directory NFS4ERR_EXIST
 * (§18.26.3). The same name in the same directory succeeds doing nothing.
 */
final class RenameOp implements Operation<RENAME4args> {
  @Override
  public int op() {
    return Nfs4.OP_RENAME;
  }

  @Override
  public RENAME4args decode(XdrReader r) {
    return RENAME4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, RENAME4args a) {
    V4Target to = ctx.current();
    V4Target from = ChangedDir.savedInSameFs(ctx);
    String oldName = Component4.check(a.oldname());
    String newName = Component4.check(a.newname());
    ChangedDir src = ChangedDir.of(ctx, from);
    ChangedDir dst = from.fileid() == to.fileid() ? src : ChangedDir.of(ctx, to);
    String fromPath = src.child(oldName);
    String toPath = dst.child(newName);
    try {
      FileAttr attr = from.fs().getattr(fromPath);
      if (!Permissions.stickyAllows(src.attr, attr, src.caller)) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "sticky directory " + from.path());
      }
      if (fromPath.equals(toPath)) {
        return new RENAME4resok(src.unchanged(), dst.unchanged());
      }
      if (attr.isDirectory() && toPath.startsWith(fromPath + "/")) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "cannot move " + fromPath + " into itself");
      }
      Errno refused = Permissions.renameRefusal(dst.attr, Entries.attrOrNull(to.fs(), toPath), attr, dst == src,
          src.caller);
      if (refused != null) {
        throw new Nfs4Exception(V4Status.of(refused), "rename of " + fromPath + " to " + toPath);
      }
      // the three changes under the source's stripe: a request whose handle finds the old name gone waits for them
      ctx.server.open.names().renaming(from.export().id(), fromPath, () -> {
        from.fs().rename(fromPath, toPath);
        ctx.fhs().recordBeforeChange(from.export(), fromPath, attr); // its fileid follows it, named handle or not
        ctx.server.table.renamed(from.export().id(), fromPath, toPath);
        // open handles follow the rename, and one of a replaced target goes (as v3 RENAME): else a later write to
        // the target's name would go to the replaced file's handle
        ctx.server.open.renamed(from.export(), fromPath, toPath);
        return null;
      });
    } catch (FsException e) {
      throw new Nfs4Exception(targetConflict(e.errno()) ? Nfs4.NFS4ERR_EXIST : V4Status.of(e.errno()),
          e.getMessage());
    }
    return new RENAME4resok(src.cinfo(), dst.cinfo());
  }

  /**
   * Whether the engine refused the rename for the existing target: a directory over a file (ENOTDIR), a file over a
   * directory (EISDIR), a non-empty directory (ENOTEMPTY, EEXIST). Both directories were checked to be directories,
   * so ENOTDIR cannot be about them.
   */
  private static boolean targetConflict(Errno e) {
    return e == Errno.ENOTDIR || e == Errno.EISDIR || e == Errno.ENOTEMPTY || e == Errno.EEXIST;
  }
}
