package io.ossgw.nfs.v3;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.xdr.LOOKUP3args;
import io.ossgw.nfs.xdr.LOOKUP3res;
import io.ossgw.nfs.xdr.READLINK3args;
import io.ossgw.nfs.xdr.READLINK3res;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfsstat3;

/** LOOKUP and READLINK (RFC 1813 §3.3.3, §3.3.5). */
final class LookupProcs {
  private final NfsState s;

  LookupProcs(NfsState s) {
    this.s = s;
  }

  /** Needs search (x) permission on the directory; "." and ".." never leave the export. */
  LOOKUP3res lookup(Call c, LOOKUP3args a) {
    Target dir = null;
    fattr3 dirAttrs = null;
    try {
      dir = s.resolve(c, a.what().dir());
      FileAttr da = s.stat(dir);
      dirAttrs = s.fattr(dir, da);
      if (!da.isDirectory()) {
        throw new NfsError(nfsstat3.NFS3ERR_NOTDIR, dir.path());
      }
      if (!Permissions.allowed(da, c.caller(dir.export()), Permissions.X)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "search permission on " + dir.path());
      }
      String name = a.what().name();
      String path;
      boolean child = false;
      if (name.equals(".")) {
        path = dir.path();
      } else if (name.equals("..")) {
        path = VPaths.isRoot(dir.path()) ? dir.path() : VPaths.parent(dir.path());
      } else {
        Names.lookup(name);
        path = VPaths.child(dir.path(), name);
        child = true;
      }
      FileAttr attr = dir.fs().getattr(path);
      io.ossgw.nfs.handle.HandleIssuer.Issued h = child && dir.recorded()
          ? s.issue(dir, dir.fileid(), path, attr) // the directory's handle named its live number: no table read
          : s.issue(dir.export(), path, attr);
      Target t = new Target(dir.export(), h.fileid(), path);
      return new LOOKUP3res(nfsstat3.NFS3_OK, h.handle(), s.fattr(t, attr), dirAttrs);
    } catch (NfsError e) {
      return LOOKUP3res.fail(e.status, dirAttrs);
    } catch (FsException e) {
      return LOOKUP3res.fail(Status.of(e.errno()), dirAttrs);
    }
  }

  READLINK3res readlink(Call c, READLINK3args a) {
    Target t = null;
    fattr3 attrs = null;
    try {
      t = s.resolve(c, a.symlink());
      FileAttr attr = s.stat(t);
      attrs = s.fattr(t, attr);
      if (!attr.isSymlink()) {
        throw new NfsError(nfsstat3.NFS3ERR_INVAL, t.path() + " is not a symbolic link");
      }
      return new READLINK3res(nfsstat3.NFS3_OK, attrs, t.fs().readlink(t.path()));
    } catch (NfsError e) {
      return READLINK3res.fail(e.status, attrs);
    } catch (FsException e) {
      return READLINK3res.fail(Status.of(e.errno()), attrs);
    }
  }
}
