package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.OPEN_DOWNGRADE4args;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * OPEN_DOWNGRADE (RFC 8881 §18.18): the open keeps less share access and deny (each a subset of what it holds, access
 * not empty: else NFS4ERR_INVAL); the stateid's seqid grows by one and it becomes the current stateid. Want flags in
 * the access word are ignored (no delegations). Errors as CLOSE for the stateid.
 */
final class OpenDowngradeOp implements Operation<OPEN_DOWNGRADE4args> {
  @Override
  public int op() {
    return Nfs4.OP_OPEN_DOWNGRADE;
  }

  @Override
  public OPEN_DOWNGRADE4args decode(XdrReader r) {
    return OPEN_DOWNGRADE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, OPEN_DOWNGRADE4args a) {
    OpenState o = OpenStates.open(ctx, a.openStateid(), ctx.current());
    stateid4 id = ctx.server.opens.downgrade(o, a.shareAccess() & Nfs4.OPEN4_SHARE_ACCESS_BOTH, a.shareDeny());
    ctx.currentStateid(id);
    return id;
  }
}
