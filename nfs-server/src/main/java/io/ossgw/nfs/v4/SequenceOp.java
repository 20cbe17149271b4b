package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.Session;
import io.ossgw.nfs.v4.state.SlotTable;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.SEQUENCE4args;
import io.ossgw.nfs.v4.xdr.SEQUENCE4resok;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * SEQUENCE (RFC 8881 §18.46): binds the compound to a session and slot, gives exactly-once execution through the
 * slot's reply cache, sets the size the reply may take (ca_maxresponsesize, or ca_maxresponsesize_cached when
 * sa_cachethis asks for the reply to be kept), and renews the client's lease. Must be the first operation
 * ({@link Compound} checks).
 */
final class SequenceOp implements Operation<SEQUENCE4args> {
  /** SEQUENCE4resok: sessionid, sequenceid, slotid, highest_slotid, target_highest_slotid, status_flags. */
  static final int RESULT = 16 + 5 * 4;

  @Override
  public int op() {
    return Nfs4.OP_SEQUENCE;
  }

  @Override
  public SEQUENCE4args decode(XdrReader r) {
    return SEQUENCE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, SEQUENCE4args a) {
    Session s = ctx.clients.session(a.sessionid());
    if (Integer.compareUnsigned(ctx.numops, s.fore().maxoperations()) > 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_TOO_MANY_OPS, ctx.numops + " operations");
    }
    if (Integer.compareUnsigned(ctx.requestLength(), s.fore().maxrequestsize()) > 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_REQ_TOO_BIG, ctx.requestLength() + " bytes");
    }
    ctx.replyLimit = Integer.toUnsignedLong(a.cachethis() ? s.fore().maxresponsesizeCached()
        : s.fore().maxresponsesize());
    ctx.tooBig = a.cachethis() ? Nfs4.NFS4ERR_REP_TOO_BIG_TO_CACHE : Nfs4.NFS4ERR_REP_TOO_BIG;
    if (CompoundContext.ERROR_RESULT + RESULT > ctx.room()) { // before the slot: a reply this small is never kept
      throw ctx.tooBig("SEQUENCE");
    }
    if (s.slots().begin(a.slotid(), a.sequenceid(), ctx.requestHash()) instanceof SlotTable.Replay r) {
      ctx.replay = r.reply();
      return null;
    }
    ctx.session = s;
    ctx.slotid = a.slotid();
    ctx.clients.renew(s.client());
    int highest = s.slots().size() - 1;
    return new SEQUENCE4resok(a.sessionid(), a.sequenceid(), a.slotid(), highest, highest, 0);
  }
}
