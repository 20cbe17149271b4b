package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.VERIFY4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * VERIFY (RFC 8881 §18.31): goes on only if the given attributes equal the current filehandle's
 * (NFS4ERR_NOT_SAME otherwise); compared in their encoded form ({@link Fattr4#same}). A client guards a SETATTR
 * with VERIFY of time_metadata (what v3's sattrguard3 did).
 */
final class VerifyOp implements Operation<VERIFY4args> {
  @Override
  public int op() {
    return Nfs4.OP_VERIFY;
  }

  @Override
  public VERIFY4args decode(XdrReader r) {
    return VERIFY4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, VERIFY4args a) {
    V4Target t = ctx.current();
    if (!ctx.server.attrs.same(a.objAttributes(), t, ctx.fhs().stat(t))) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOT_SAME, "attributes differ");
    }
    return null;
  }
}
