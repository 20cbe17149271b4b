package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.PUTFH4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * PUTFH (RFC 8881 §18.19): makes a filehandle current, with the checks of {@link V4Handles#resolve} (BADHANDLE,
 * STALE, ACCESS, PERM, WRONGSEC).
 */
final class PutFhOp implements Operation<PUTFH4args> {
  @Override
  public int op() {
    return Nfs4.OP_PUTFH;
  }

  @Override
  public PUTFH4args decode(XdrReader r) {
    return PUTFH4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, PUTFH4args a) {
    ctx.current = ctx.fhs().resolve(a.object().data(), ctx.peer);
    return null;
  }
}
