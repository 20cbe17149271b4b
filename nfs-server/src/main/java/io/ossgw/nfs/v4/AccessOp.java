package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.ACCESS4args;
import io.ossgw.nfs.v4.xdr.ACCESS4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * ACCESS (RFC 8881 §18.1): which of the asked ACCESS4_* rights the caller has on the current filehandle, decided as
 * v3 ACCESS decides ({@link Permissions#access}; the ACCESS4 bits are ACCESS3's). Every asked right is reported as
 * supported (the server judged it); bits outside the six defined are NFS4ERR_INVAL (as Linux knfsd). A pseudo
 * directory grants READ and LOOKUP only (it is read-only).
 */
final class AccessOp implements Operation<ACCESS4args> {
  private static final int ALL = Nfs4.ACCESS4_READ | Nfs4.ACCESS4_LOOKUP | Nfs4.ACCESS4_MODIFY | Nfs4.ACCESS4_EXTEND
      | Nfs4.ACCESS4_DELETE | Nfs4.ACCESS4_EXECUTE;

  @Override
  public int op() {
    return Nfs4.OP_ACCESS;
  }

  @Override
  public ACCESS4args decode(XdrReader r) {
    return ACCESS4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, ACCESS4args a) {
    V4Target t = ctx.current();
    if ((a.access() & ~ALL) != 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "access bits " + Integer.toHexString(a.access()));
    }
    FileAttr cur = ctx.fhs().stat(t);
    int granted = t.pseudo() ? a.access() & (Nfs4.ACCESS4_READ | Nfs4.ACCESS4_LOOKUP)
        : Permissions.access(cur, ctx.caller(), a.access(), t.export().readOnly());
    return new ACCESS4resok(a.access(), granted);
  }
}
