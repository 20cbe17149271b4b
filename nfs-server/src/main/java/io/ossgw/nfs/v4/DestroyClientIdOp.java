package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.DESTROY_CLIENTID4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * DESTROY_CLIENTID (RFC 8881 §18.50): NFS4ERR_STALE_CLIENTID if unknown, NFS4ERR_CLIENTID_BUSY with sessions or with
 * open or lock state (§18.50.3: the client frees its state first).
 */
final class DestroyClientIdOp implements Operation<DESTROY_CLIENTID4args> {
  @Override
  public int op() {
    return Nfs4.OP_DESTROY_CLIENTID;
  }

  @Override
  public DESTROY_CLIENTID4args decode(XdrReader r) {
    return DESTROY_CLIENTID4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, DESTROY_CLIENTID4args a) {
    ctx.clients.destroyClientId(a.clientid(), rec -> !ctx.server.states.ofClient(rec).isEmpty());
    return null;
  }
}
