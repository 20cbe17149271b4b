package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.StateTable;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.TEST_STATEID4args;
import io.ossgw.nfs.v4.xdr.TEST_STATEID4resok;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * TEST_STATEID (RFC 8881 §18.48): for each stateid, whether it is valid for the session's client: NFS4_OK, or
 * NFS4ERR_BAD_STATEID (unknown, freed, another client's, a special stateid, a seqid from the future),
 * NFS4ERR_OLD_STATEID (an older seqid). A seqid of 0 tests the state whatever its seqid. Nothing is revoked here, so
 * NFS4ERR_EXPIRED / ADMIN_REVOKED / DELEG_REVOKED are never answered: an expired client's state is gone with it.
 */
final class TestStateidOp implements Operation<TEST_STATEID4args> {
  @Override
  public int op() {
    return Nfs4.OP_TEST_STATEID;
  }

  @Override
  public TEST_STATEID4args decode(XdrReader r) {
    return TEST_STATEID4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, TEST_STATEID4args a) {
    ClientRecord client = ctx.session.client();
    int[] codes = new int[a.stateids().size()];
    for (int i = 0; i < codes.length; i++) {
      codes[i] = status(ctx.server.states, client, a.stateids().get(i));
    }
    return new TEST_STATEID4resok(codes);
  }

  /** The validity of one stateid for a client (shared with FREE_STATEID). */
  static int status(StateTable states, ClientRecord client, stateid4 id) {
    if (id.otherZero() || id.equals(stateid4.BYPASS)) {
      return Nfs4.NFS4ERR_BAD_STATEID; // special stateids name no state (§8.2.3)
    }
    StateTable.State s = states.find(id);
    if (s == null || s.client() != client) {
      return Nfs4.NFS4ERR_BAD_STATEID;
    }
    int cur = s.stateid().seqid();
    if (id.seqid() == 0 || id.seqid() == cur) {
      return Nfs4.NFS4_OK;
    }
    return cur - id.seqid() > 0 ? Nfs4.NFS4ERR_OLD_STATEID : Nfs4.NFS4ERR_BAD_STATEID;
  }
}
