package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.SECINFO4resok;
import io.ossgw.nfs.v4.xdr.SECINFO_NO_NAME4args;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * SECINFO_NO_NAME (RFC 8881 §18.45): the flavors of the current filehandle (SECINFO_STYLE4_CURRENT_FH) or of its parent
 * (SECINFO_STYLE4_PARENT; NFS4ERR_NOENT at the pseudo root), as {@link SecInfoOp} reports them. Consumes the current
 * filehandle.
 */
final class SecInfoNoNameOp implements Operation<SECINFO_NO_NAME4args> {
  @Override
  public int op() {
    return Nfs4.OP_SECINFO_NO_NAME;
  }

  @Override
  public SECINFO_NO_NAME4args decode(XdrReader r) {
    return SECINFO_NO_NAME4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, SECINFO_NO_NAME4args a) {
    V4Target t = ctx.current();
    int[] flavors = a.style() == Nfs4.SECINFO_STYLE4_PARENT ? ctx.fhs().parentFlavors(t) : ctx.fhs().flavors(t);
    ctx.current = null;
    return new SECINFO4resok(flavors);
  }
}
