package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.StateTable;
import io.ossgw.nfs.v4.xdr.FREE_STATEID4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * FREE_STATEID (RFC 8881 §18.38): frees a stateid that no longer holds anything. A lock stateid whose owner holds no
 * lock on the file is freed; one with locks is NFS4ERR_LOCKS_HELD; an open stateid is a share reservation still held
 * (it goes with CLOSE), so it is NFS4ERR_LOCKS_HELD too, as the RFC says of any stateid with "valid locks (of any
 * kind)" and as the Linux server answers. Unknown, another client's and special stateids are NFS4ERR_BAD_STATEID, an
 * older seqid NFS4ERR_OLD_STATEID.
 */
final class FreeStateidOp implements Operation<FREE_STATEID4args> {
  @Override
  public int op() {
    return Nfs4.OP_FREE_STATEID;
  }

  @Override
  public FREE_STATEID4args decode(XdrReader r) {
    return FREE_STATEID4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, FREE_STATEID4args a) {
    StateTable states = ctx.server.states;
    int status = TestStateidOp.status(states, ctx.session.client(), a.stateid());
    if (status != Nfs4.NFS4_OK) {
      throw new Nfs4Exception(status, "FREE_STATEID of " + a.stateid());
    }
    if (!(states.find(a.stateid()) instanceof LockState l)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_LOCKS_HELD, a.stateid() + " is an open: CLOSE frees it");
    }
    // under the index's monitor, so no LOCK of this owner can slip in between the check and the removal
    if (!ctx.server.lockStates.freeIfUnlocked(l, ctx.server.locks)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_LOCKS_HELD, l + " holds locks");
    }
    states.remove(l);
    return null;
  }
}
