package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.DESTROY_SESSION4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/** DESTROY_SESSION (RFC 8881 §18.37): NFS4ERR_BADSESSION for an unknown session. */
final class DestroySessionOp implements Operation<DESTROY_SESSION4args> {
  @Override
  public int op() {
    return Nfs4.OP_DESTROY_SESSION;
  }

  @Override
  public DESTROY_SESSION4args decode(XdrReader r) {
    return DESTROY_SESSION4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, DESTROY_SESSION4args a) {
    ctx.clients.destroySession(a.sessionid());
    return null;
  }
}
