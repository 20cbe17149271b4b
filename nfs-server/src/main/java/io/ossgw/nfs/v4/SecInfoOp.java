package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.SECINFO4args;
import io.ossgw.nfs.v4.xdr.SECINFO4resok;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * SECINFO (RFC 8881 §18.29): the security flavors for the named object of the current directory: AUTH_SYS, and
 * AUTH_NONE too where v3 accepts it (an all_squash export, {@link io.ossgw.nfs.auth.Identities#flavors}; pseudo
 * directories accept both). Name and directory errors as LOOKUP. The current filehandle is consumed (§2.6.3.1.1.8):
 * after SECINFO there is none.
 */
final class SecInfoOp implements Operation<SECINFO4args> {
  @Override
  public int op() {
    return Nfs4.OP_SECINFO;
  }

  @Override
  public SECINFO4args decode(XdrReader r) {
    return SECINFO4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, SECINFO4args a) {
    V4Target dir = ctx.current();
    String name = Component4.check(a.name());
    LookupOp.searchable(ctx, dir);
    int[] flavors = ctx.fhs().flavors(dir, name, ctx.peer);
    ctx.current = null;
    return new SECINFO4resok(flavors);
  }
}
