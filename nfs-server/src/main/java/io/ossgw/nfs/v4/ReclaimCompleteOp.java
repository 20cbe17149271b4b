package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.RECLAIM_COMPLETE4args;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * RECLAIM_COMPLETE (RFC 8881 §18.51): the client has reclaimed what it held before a server restart. The whole-client
 * form is recorded (a second one is NFS4ERR_COMPLETE_ALREADY; later reclaims of the client are NFS4ERR_NO_GRACE) and
 * ends the grace period early once every client known from before the restart has sent it ({@link
 * io.ossgw.nfs.v4.state.Grace#reclaimComplete}); the one-file-system form is accepted as is since every export is
 * reclaimed together.
 */
final class ReclaimCompleteOp implements Operation<RECLAIM_COMPLETE4args> {
  @Override
  public int op() {
    return Nfs4.OP_RECLAIM_COMPLETE;
  }

  @Override
  public RECLAIM_COMPLETE4args decode(XdrReader r) {
    return RECLAIM_COMPLETE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, RECLAIM_COMPLETE4args a) {
    if (!a.oneFs()) {
      ctx.clients.reclaimComplete(ctx.session.client());
      ctx.server.grace.reclaimComplete(ctx.session.client());
    }
    return null;
  }
}
