package io.ossgw.nfs.v3;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.fs.Entries;
import io.ossgw.nfs.xdr.REMOVE3args;
import io.ossgw.nfs.xdr.REMOVE3res;
import io.ossgw.nfs.xdr.RENAME3args;
import io.ossgw.nfs.xdr.RENAME3res;
import io.ossgw.nfs.xdr.RMDIR3args;
import io.ossgw.nfs.xdr.RMDIR3res;
import io.ossgw.nfs.xdr.diropargs3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.nfs.xdr.wcc_attr;
import io.ossgw.nfs.xdr.wcc_data;

/**
 * REMOVE, RMDIR and RENAME (RFC 1813 §3.3.12–§3.3.14). Each keeps the handle table in step: a removed object's
 * handles go stale, a renamed object's handles (and those of everything below a renamed directory) follow it.
 */
final class RemoveProcs {
  private final NfsState s;

  RemoveProcs(NfsState s) {
    this.s = s;
  }

  /** A directory entry to change, checked: writable export, directory, w+x, sticky bit (NFS3ERR_PERM). */
  private record Entry(Target dir, wcc_attr before, Caller caller, String path, FileAttr attr) {}

  private Entry entry(Call c, diropargs3 d, Target dir) {
    FileAttr da = s.stat(dir);
    wcc_attr before = s.fattr(dir, da).wcc();
    try {
      if (dir.export().readOnly()) {
        throw new NfsError(nfsstat3.NFS3ERR_ROFS, dir.export().path());
      }
      if (!da.isDirectory()) {
        throw new NfsError(nfsstat3.NFS3ERR_NOTDIR, dir.path());
      }
      String name = Names.entry(d.name(), false);
      Caller caller = c.caller(dir.export());
      if (!Permissions.canModifyDir(da, caller)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "write permission on " + dir.path());
      }
      String path = VPaths.child(dir.path(), name);
      FileAttr attr = dir.fs().getattr(path);
      if (!Permissions.stickyAllows(da, attr, caller)) {
        throw new NfsError(nfsstat3.NFS3ERR_PERM, "sticky directory " + dir.path());
      }
      return new Entry(dir, before, caller, path, attr);
    } catch (NfsError e) {
      throw new WithWcc(e.status, new wcc_data(before, s.fattr(dir, da)));
    } catch (FsException e) {
      throw new WithWcc(Status.of(e.errno()), new wcc_data(before, s.fattr(dir, da)));
    }
  }

  /** A failure with the directory's wcc_data known. */
  private static final class WithWcc extends RuntimeException {
    final int status;
    final wcc_data wcc;

    WithWcc(int status, wcc_data wcc) {
      super(null, null, false, false);
      this.status = status;
      this.wcc = wcc;
    }
  }

  REMOVE3res remove(Call c, REMOVE3args a) {
    Entry e = null;
    try {
      e = entry(c, a.object(), s.resolve(c, a.object().dir()));
      e.dir().fs().unlink(e.path());
      removed(e);
      return new REMOVE3res(nfsstat3.NFS3_OK, s.wcc(e.before(), e.dir()));
    } catch (WithWcc w) {
      return new REMOVE3res(w.status, w.wcc);
    } catch (NfsError err) {
      return new REMOVE3res(err.status, wcc_data.EMPTY);
    } catch (FsException err) {
      return new REMOVE3res(Status.of(err.errno()), s.wcc(e.before(), e.dir()));
    }
  }

  RMDIR3res rmdir(Call c, RMDIR3args a) {
    Entry e = null;
    try {
      e = entry(c, a.object(), s.resolve(c, a.object().dir()));
      e.dir().fs().rmdir(e.path());
      removed(e);
      return new RMDIR3res(nfsstat3.NFS3_OK, s.wcc(e.before(), e.dir()));
    } catch (WithWcc w) {
      return new RMDIR3res(w.status, w.wcc);
    } catch (NfsError err) {
      return new RMDIR3res(err.status, wcc_data.EMPTY);
    } catch (FsException err) {
      return new RMDIR3res(Status.of(err.errno()), s.wcc(e.before(), e.dir()));
    }
  }

  private void removed(Entry e) {
    s.issuer.recordBeforeChange(e.dir().export().id(), e.path(), e.attr()); // a named handle's fileid gets its tombstone
    s.table.removed(e.dir().export().id(), e.path());
    s.open.removed(e.dir().export(), e.path());
  }

  /**
   * Files by copy and delete, directories by copying everything below them (the engine's rename: not atomic for
   * directories). Both directories must be in one export (else NFS3ERR_XDEV).
   */
  RENAME3res rename(Call c, RENAME3args a) {
    Entry from = null;
    Target toDir = null;
    wcc_attr toBefore = null;
    try {
      Target fromDir = s.resolve(c, a.from().dir());
      toDir = s.resolve(c, a.to().dir());
      from = entry(c, a.from(), fromDir);
      if (toDir.export().id() != fromDir.export().id()) {
        throw new NfsError(nfsstat3.NFS3ERR_XDEV, "rename across exports");
      }
      FileAttr tda = s.stat(toDir);
      toBefore = s.fattr(toDir, tda).wcc();
      if (!tda.isDirectory()) {
        throw new NfsError(nfsstat3.NFS3ERR_NOTDIR, toDir.path());
      }
      String toName = Names.entry(a.to().name(), false);
      if (!Permissions.canModifyDir(tda, from.caller())) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "write permission on " + toDir.path());
      }
      String toPath = VPaths.child(toDir.path(), toName);
      if (!toPath.equals(from.path())) {
        Errno refused = Permissions.renameRefusal(tda, Entries.attrOrNull(toDir.fs(), toPath), from.attr(),
            toDir.path().equals(fromDir.path()), from.caller());
        if (refused != null) {
          throw new NfsError(Status.of(refused), "rename of " + from.path() + " to " + toPath);
        }
        Entry moving = from;
        Export e = fromDir.export();
        // the three changes under the source's stripe: a request whose handle finds the old name gone waits for them
        s.open.names().renaming(e.id(), moving.path(), () -> {
          moving.dir().fs().rename(moving.path(), toPath);
          s.issuer.recordBeforeChange(e.id(), moving.path(), moving.attr()); // its fileid follows it, named or not
          s.table.renamed(e.id(), moving.path(), toPath);
          s.open.renamed(e, moving.path(), toPath);
          return null;
        });
      }
      return new RENAME3res(nfsstat3.NFS3_OK, s.wcc(from.before(), from.dir()), s.wcc(toBefore, toDir));
    } catch (WithWcc w) {
      return new RENAME3res(w.status, w.wcc, toDir == null ? wcc_data.EMPTY : new wcc_data(null, s.postOp(toDir)));
    } catch (NfsError err) {
      return new RENAME3res(err.status, from == null ? wcc_data.EMPTY : s.wcc(from.before(), from.dir()),
          toDir == null ? wcc_data.EMPTY : s.wcc(toBefore, toDir));
    } catch (FsException err) {
      return new RENAME3res(Status.of(err.errno()), s.wcc(from.before(), from.dir()), s.wcc(toBefore, toDir));
    }
  }
}
