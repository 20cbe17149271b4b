package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.CREATE_SESSION4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * CREATE_SESSION (RFC 8881 §18.36): confirms the client and opens a session ({@link
 * io.ossgw.nfs.v4.state.ClientTable#createSession}); no back channel and no persistent reply cache are offered.
 */
final class CreateSessionOp implements Operation<CREATE_SESSION4args> {
  @Override
  public int op() {
    return Nfs4.OP_CREATE_SESSION;
  }

  @Override
  public CREATE_SESSION4args decode(XdrReader r) {
    return CREATE_SESSION4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, CREATE_SESSION4args a) {
    return ctx.clients.createSession(a, ctx.principal);
  }
}
