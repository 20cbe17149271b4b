package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable;
import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.LOCK4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * LOCK (RFC 8881 §18.10): takes a byte-range lock on the current file in the gateway's lock table, for a lock owner
 * of the session's client (the lock_owner4's clientid is ignored, §18.10.3).
 *
 * <ul>
 *   <li>A lock owner's first LOCK on a file names an open stateid (open_to_lock_owner4) and makes the owner's lock
 *       state on the file ({@link LockState}, one stateid per lock owner and file: a second open_to_lock_owner4 of
 *       the same owner and file reuses it, as the Linux server does); later ones name that lock stateid
 *       (exist_lock_owner4). The seqids in both are ignored (sessions give exactly-once semantics). The lock
 *       stateid's seqid grows by one per LOCK granted; a lock state made by a LOCK that is not granted is dropped.
 *   <li>A stateid of another kind, another client or another file is NFS4ERR_BAD_STATEID; an old seqid
 *       NFS4ERR_OLD_STATEID. A write lock needs an open with write access, a read lock one with read access
 *       (NFS4ERR_OPENMODE, as the Linux server).
 *   <li>Ranges: {@link LockRange#of} (NFS4ERR_INVAL, NFS4ERR_BAD_RANGE). Upgrades, downgrades and locks over part of
 *       an owner's own locks are done POSIX-style by the lock table, so NFS4ERR_LOCK_RANGE is never answered.
 *   <li>A conflict is NFS4ERR_DENIED with the conflicting lock (LOCK4denied). READW_LT and WRITEW_LT do not wait on
 *       the server: without CB_NOTIFY_LOCK (no back channel here) the client polls, as RFC 8881 §9.6 describes.
 *   <li>Grace: a LOCK with reclaim set is served only in the grace period and only for a client that held state
 *       before the restart ({@link io.ossgw.nfs.v4.state.Grace#checkReclaim(ClientRecord)}: NFS4ERR_NO_GRACE,
 *       NFS4ERR_RECLAIM_BAD); one without is NFS4ERR_GRACE during it.
 *   <li>Over the lock table's caps (per client and in all) the answer is NFS4ERR_SERVERFAULT (minor version 1 has no
 *       NFS4ERR_RESOURCE; NFS4ERR_DELAY would make the client retry forever).
 * </ul>
 */
final class LockOp implements Operation<LOCK4args> {
  @Override
  public int op() {
    return Nfs4.OP_LOCK;
  }

  @Override
  public LOCK4args decode(XdrReader r) {
    return LOCK4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, LOCK4args a) {
    ServerState server = ctx.server;
    ClientRecord client = ctx.session.client();
    FileKey file = LockRange.file(ctx.current());
    LockRange range = LockRange.of(a.offset(), a.length());
    if (a.reclaim()) {
      server.grace.checkReclaim(client);
    } else {
      server.grace.checkNonReclaim();
    }
    LockTable.Mode mode = LockRange.mode(a.locktype());
    for (int attempt = 0; ; attempt++) {
      LockStates.Made made;
      if (a.openOwner() != null) {
        OpenState open = OpenStates.open(ctx, a.openOwner().openStateid(), ctx.current());
        checkAccess(open, mode);
        made = server.lockStates.findOrAdd(server.states, client, a.openOwner().lockOwner().owner(), file, open);
      } else {
        LockState l = server.states.get(ctx.stateid(a.lockOwner().lockStateid()), LockState.class);
        if (l.client() != client || !l.file().equals(file)) {
          throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, l + " is not of this client and file");
        }
        checkAccess(l.open(), mode);
        made = new LockStates.Made(l, false);
      }
      LockState l = made.state();
      LockTable.Result r = l.ifLive(() -> server.locks.lock(file, l.owner(), mode, range.start(), range.end()));
      if (r == null) { // freed by FREE_STATEID meanwhile
        if (a.openOwner() != null && attempt < 3) {
          continue;
        }
        throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, l + " was freed");
      }
      if (r.status() != LockTable.Status.GRANTED && made.isNew() && server.lockStates.freeIfUnlocked(l, server.locks)) {
        server.states.remove(l);
      }
      switch (r.status()) {
        case GRANTED -> {
          stateid4 id = made.isNew() ? l.stateid() : server.states.bump(l);
          ctx.currentStateid(id);
          return id;
        }
        case CONFLICT -> throw LockRange.denied(r.holder());
        default -> throw new Nfs4Exception(Nfs4.NFS4ERR_SERVERFAULT, "lock table full for " + l);
      }
    }
  }

  /** A write lock needs write access, a read lock read access (§18.10.3 lets the server refuse: NFS4ERR_OPENMODE). */
  private static void checkAccess(OpenState open, LockTable.Mode mode) {
    int need = mode == LockTable.Mode.EXCLUSIVE ? Nfs4.OPEN4_SHARE_ACCESS_WRITE : Nfs4.OPEN4_SHARE_ACCESS_READ;
    if ((open.access() & need) == 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_OPENMODE, mode + " lock through " + open);
    }
  }
}
