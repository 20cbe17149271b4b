package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.LOCKU4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * LOCKU (RFC 8881 §18.12): releases what the lock stateid's owner holds in the range (nothing held is fine, as
 * POSIX unlock), whatever the locktype; the stateid's seqid grows by one and it stays valid (the client frees it with
 * FREE_STATEID, or CLOSE does). A stateid of another kind, client or file is NFS4ERR_BAD_STATEID; ranges as LOCK.
 * Served during the grace period. Splitting a lock over the lock table's caps is NFS4ERR_SERVERFAULT (nothing
 * changes).
 */
final class LockuOp implements Operation<LOCKU4args> {
  @Override
  public int op() {
    return Nfs4.OP_LOCKU;
  }

  @Override
  public LOCKU4args decode(XdrReader r) {
    return LOCKU4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, LOCKU4args a) {
    LockTable.FileKey file = LockRange.file(ctx.current());
    LockState l = ctx.server.states.get(ctx.stateid(a.lockStateid()), LockState.class);
    if (l.client() != ctx.session.client() || !l.file().equals(file)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, l + " is not of this client and file");
    }
    LockRange range = LockRange.of(a.offset(), a.length());
    LockTable.Result r = l.ifLive(() -> ctx.server.locks.unlock(file, l.owner(), range.start(), range.end()));
    if (r == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, l + " was freed");
    }
    if (r.status() != LockTable.Status.GRANTED) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_SERVERFAULT, "lock table full splitting a lock of " + l);
    }
    stateid4 id = ctx.server.states.bump(l);
    ctx.currentStateid(id);
    return id;
  }
}
