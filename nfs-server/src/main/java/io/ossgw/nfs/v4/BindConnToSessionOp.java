package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.BIND_CONN_TO_SESSION4args;
import io.ossgw.nfs.v4.xdr.BIND_CONN_TO_SESSION4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * BIND_CONN_TO_SESSION (RFC 8881 §18.34), used by clients after a reconnect. Connections are not bound to sessions
 * (any connection may carry any session's fore channel, as without SP4 state protection the RFC allows), so this
 * checks the session and answers "fore channel"; a request that needs the back channel (CDFC4_BACK,
 * CDFC4_BACK_OR_BOTH) is NFS4ERR_INVAL since none is served.
 */
final class BindConnToSessionOp implements Operation<BIND_CONN_TO_SESSION4args> {
  @Override
  public int op() {
    return Nfs4.OP_BIND_CONN_TO_SESSION;
  }

  @Override
  public BIND_CONN_TO_SESSION4args decode(XdrReader r) {
    return BIND_CONN_TO_SESSION4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, BIND_CONN_TO_SESSION4args a) {
    ctx.clients.session(a.sessionid());
    if (a.dir() != Nfs4.CDFC4_FORE && a.dir() != Nfs4.CDFC4_FORE_OR_BOTH) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "channel direction " + a.dir());
    }
    return new BIND_CONN_TO_SESSION4resok(a.sessionid(), Nfs4.CDFS4_FORE, false);
  }
}
