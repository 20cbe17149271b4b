package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.REMOVE4args;
import io.ossgw.nfs.v4.xdr.REMOVE4resok;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * REMOVE (RFC 8881 §18.25): removes a file, symbolic link, special file or empty directory from the current
 * filehandle's directory (v3's REMOVE and RMDIR in one): DeleteObject of the object, or of the directory's marker.
 * Errors: the name's ({@link Component4#check}), the directory's ({@link ChangedDir#of}), NFS4ERR_NOENT for a name that
 * does not exist, NFS4ERR_PERM in a sticky directory for an entry the caller neither owns nor holds the directory of
 * (EPERM, as Linux's may_delete), NFS4ERR_NOTEMPTY for a directory with entries. The removed object's handles go stale
 * (as v3's).
 */
final class RemoveOp implements Operation<REMOVE4args> {
  @Override
  public int op() {
    return Nfs4.OP_REMOVE;
  }

  @Override
  public REMOVE4args decode(XdrReader r) {
    return REMOVE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, REMOVE4args a) {
    V4Target t = ctx.current();
    String name = Component4.check(a.target());
    ChangedDir d = ChangedDir.of(ctx, t);
    String path = d.child(name);
    try {
      FileAttr attr = t.fs().getattr(path);
      if (!Permissions.stickyAllows(d.attr, attr, d.caller)) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "sticky directory " + t.path());
      }
      if (attr.isDirectory()) {
        t.fs().rmdir(path);
      } else {
        t.fs().unlink(path);
      }
      ctx.fhs().recordBeforeChange(t.export(), path, attr); // a named handle's fileid gets its tombstone
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    ctx.server.table.removed(t.export().id(), path);
    ctx.server.open.removed(t.export(), path); // its shared open handle goes too, as v3 REMOVE does
    return new REMOVE4resok(d.cinfo());
  }
}
