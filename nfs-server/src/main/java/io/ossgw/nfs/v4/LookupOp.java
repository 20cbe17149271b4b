package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.LOOKUP4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * LOOKUP (RFC 8881 §18.15): the current filehandle becomes the named object of the current directory. Errors: no
 * current filehandle NFS4ERR_NOFILEHANDLE; the name as {@link Component4#check} (empty INVAL, over 255 bytes
 * NAMETOOLONG, "." ".." BADNAME); current object a symbolic link NFS4ERR_SYMLINK, another non-directory
 * NFS4ERR_NOTDIR; no search (x) permission NFS4ERR_ACCESS (as v3 LOOKUP); no such name NFS4ERR_NOENT. From a pseudo
 * directory it enters an export (with the export's client checks, {@link V4Handles#checkClient}).
 */
final class LookupOp implements Operation<LOOKUP4args> {
  @Override
  public int op() {
    return Nfs4.OP_LOOKUP;
  }

  @Override
  public LOOKUP4args decode(XdrReader r) {
    return LOOKUP4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, LOOKUP4args a) {
    V4Target dir = ctx.current();
    String name = Component4.check(a.objname());
    searchable(ctx, dir);
    ctx.current = ctx.fhs().lookup(dir, name, ctx.peer);
    return null;
  }

  /**
   * Checks {@code dir} is a directory the caller may search (LOOKUP, LOOKUPP, SECINFO).
   *
   * @throws Nfs4Exception SYMLINK, NOTDIR, ACCESS, STALE
   */
  static FileAttr searchable(CompoundContext ctx, V4Target dir) {
    FileAttr da = ctx.fhs().stat(dir);
    if (da.isSymlink()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_SYMLINK, dir.path() + " is a symbolic link");
    }
    if (!da.isDirectory()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOTDIR, dir.path() + " is not a directory");
    }
    if (!dir.pseudo() && !Permissions.allowed(da, ctx.caller(), Permissions.X)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "search permission on " + dir.path());
    }
    return da;
  }
}
