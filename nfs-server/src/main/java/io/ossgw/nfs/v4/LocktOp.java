package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.v4.xdr.LOCKT4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.util.HexFormat;

/**
 * LOCKT (RFC 8881 §18.11): would the lock be granted to this lock owner of the session's client (the owner's clientid
 * is ignored, §18.11.3)? NFS4_OK, or NFS4ERR_DENIED with a conflicting lock: an NFSv4 holder with its client id and
 * owner, an NLM (NFSv3) holder with client id 0 and an owner naming it ({@link LockRange#denied}). Takes no state and
 * needs no open. NFS4ERR_GRACE during the grace period (a lock not yet reclaimed could conflict), as the Linux server.
 */
final class LocktOp implements Operation<LOCKT4args> {
  @Override
  public int op() {
    return Nfs4.OP_LOCKT;
  }

  @Override
  public LOCKT4args decode(XdrReader r) {
    return LOCKT4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, LOCKT4args a) {
    LockTable.FileKey file = LockRange.file(ctx.current());
    LockRange range = LockRange.of(a.offset(), a.length());
    ctx.server.grace.checkNonReclaim();
    LockTable.Owner owner = new LockTable.Owner(LockState.clientName(ctx.session.client()),
        HexFormat.of().formatHex(a.owner().owner()));
    LockTable.Lock holder = ctx.server.locks.test(file, owner, LockRange.mode(a.locktype()), range.start(),
        range.end());
    if (holder != null) {
      throw LockRange.denied(holder);
    }
    return null;
  }
}
