package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.fs.DirCursors;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.fs.WriteVerifier;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.handle.HandleIssuer;
import io.ossgw.core.inode.InodeNumbers;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.nfs.xdr.wcc_attr;
import io.ossgw.nfs.xdr.wcc_data;

/**
 * Everything the NFS procedures share: exports, the handle table and format, open files and the write verifier (both
 * shared with NFSv4.1), directory cursors.
 */
final class NfsState {
  final Exports exports;
  final InodeTable table;
  final FileHandles handles;
  final HandleIssuer issuer;
  final OpenFiles open;
  final DirCursors cursors;
  final Attrs attrs = new Attrs();
  final Nfs3Limits limits;
  private final WriteVerifier writeVerifier;

  NfsState(Exports exports, InodeTable table, Nfs3Limits limits, OpenFiles open, WriteVerifier writeVerifier) {
    this.exports = exports;
    this.table = table;
    this.handles = new FileHandles(table.secret());
    this.issuer = new HandleIssuer(table, handles);
    this.limits = limits;
    this.open = open;
    this.writeVerifier = writeVerifier;
    this.cursors = new DirCursors(limits.cursorBytes(), limits.cursorIdle());
  }

  /** The writeverf3 of WRITE and COMMIT replies: random per start, so it changes when the server restarts. */
  long writeVerifier() {
    return writeVerifier.get();
  }

  /**
   * Resolves a handle and checks the client may use its export.
   *
   * @throws NfsError BADHANDLE (not one of ours), STALE (export gone, object removed), ACCES (client not in the
   *     export's networks), PERM (secure export, unprivileged source port)
   */
  Target resolve(Call call, nfs_fh3 fh) {
    FileHandles.Decoded d = handles.decode(fh);
    if (d == null) {
      throw new NfsError(nfsstat3.NFS3ERR_BADHANDLE, "not a handle of this server");
    }
    Export e = exports.byId(d.exportId());
    if (e == null) {
      throw new NfsError(nfsstat3.NFS3ERR_STALE, "export " + d.exportId() + " is gone");
    }
    checkClient(call, e);
    String path = issuer.pathOf(e.id(), d);
    if (path == null) {
      throw new NfsError(nfsstat3.NFS3ERR_STALE, "fileid " + d.fileid() + " of export " + e.path() + " is gone");
    }
    return new Target(e, d.fileid(), path, d.name() == null, d);
  }

  /**
   * @throws NfsError ACCES or PERM
   * @throws io.ossgw.nfs.rpc.AuthRefused AUTH_TOOWEAK for AUTH_NONE on an export without all_squash
   */
  static void checkClient(Call call, Export e) {
    io.ossgw.nfs.auth.Identities.requireAccepted(call.rpc.getCredential(), e);
    if (call.client == null || !e.allows(call.client.getAddress())) {
      throw new NfsError(nfsstat3.NFS3ERR_ACCES, "client " + call.client + " may not use " + e.path());
    }
    if (e.secure() && call.client.getPort() >= 1024) {
      throw new NfsError(nfsstat3.NFS3ERR_PERM, "export " + e.path() + " requires a privileged port");
    }
  }

  /**
   * The attributes of a resolved object. A procedure calls it before it changes anything, so that {@link Moved} can
   * run it again.
   *
   * @throws Moved if the object is missing because a RENAME moved it meanwhile ({@link
   *     io.ossgw.nfs.fs.NameChanges}): the handle now resolves to another path, and the procedure is run again
   * @throws NfsError STALE if the object no longer exists, else the errno's status
   */
  FileAttr stat(Target t) {
    try {
      return getattr(t);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT || e.errno() == Errno.ENOTDIR) {
        String now = t.handle() == null ? null
            : issuer.movedTo(t.export().id(), t.handle(), t.path(), open.names());
        if (now != null) {
          throw new Moved(t.path() + " was renamed to " + now);
        }
        throw new NfsError(nfsstat3.NFS3ERR_STALE, t.path() + " is gone");
      }
      throw Status.error(e);
    }
  }

  /**
   * The engine's attributes of a resolved target, without asking the engine's table for its number ({@link
   * InodeNumbers#unnumbered}: a store round trip in a cluster): the reply shows the target's fileid ({@link #fattr}).
   *
   * @throws FsException as the file system's getattr
   */
  FileAttr getattr(Target t) {
    return InodeNumbers.unnumbered(() -> t.fs().getattr(t.path()));
  }

  /**
   * A procedure's handle named an object a concurrent RENAME moved: {@link Nfs3Program} runs the procedure again,
   * which resolves the handle to the new path. Not an {@link NfsError}, so procedures do not answer it themselves.
   */
  static final class Moved extends RuntimeException {
    Moved(String message) {
      super(message, null, false, false);
    }
  }

  /** post_op_attr of an object: its attributes, or null if they cannot be had. */
  fattr3 postOp(Target t) {
    try {
      return fattr(t, getattr(t));
    } catch (RuntimeException e) {
      return null;
    }
  }

  fattr3 fattr(Target t, FileAttr a) {
    return attrs.of(t.export(), t.fileid(), t.path(), a);
  }

  /** The target of a path of {@code e} with attributes {@code a}, its fileid allocated if new. */
  Target targetOf(Export e, String path, FileAttr a) {
    long[] id = table.idOf(e.id(), path, a.ino());
    return new Target(e, id[0], path);
  }

  /** The handle of a path ({@link HandleIssuer}: recording its fileid if new, unless it gets a named handle). */
  nfs_fh3 handleOf(Export e, String path, FileAttr a) {
    return issuer.issue(e.id(), path, a).handle();
  }

  /** The handle of a path and its target, as {@link #handleOf} (READDIRPLUS, LOOKUP: no table write per name). */
  HandleIssuer.Issued issue(Export e, String path, FileAttr a) {
    return issuer.issue(e.id(), path, a);
  }

  /**
   * The handle of an entry of directory {@code dir} ({@link HandleIssuer#issue(int, String, FileAttr, Long)}) with the
   * directory's number from {@link #parentOf}: one table read per entry.
   */
  HandleIssuer.Issued issue(Target dir, Long parent, String path, FileAttr a) {
    return issuer.issue(dir.export().id(), path, a, parent);
  }

  /**
   * The live number of a directory for the handles of its entries: the resolved handle's own when it was a recorded
   * one (no table read), else the table's. Taken once per reply.
   */
  Long parentOf(Target dir) {
    return dir.recorded() ? Long.valueOf(dir.fileid()) : issuer.parentOf(dir.export().id(), dir.path());
  }

  /** wcc_data from attributes taken before (may be null) and the object's attributes now. */
  wcc_data wcc(wcc_attr before, Target t) {
    return new wcc_data(before, postOp(t));
  }
}
