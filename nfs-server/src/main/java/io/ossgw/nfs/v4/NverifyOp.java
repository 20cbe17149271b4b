package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.VERIFY4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * NVERIFY (RFC 8881 §18.15): goes on only if the given attributes differ from the current filehandle's
 * (NFS4ERR_SAME otherwise). Same arguments and comparison as {@link VerifyOp}.
 */
final class NverifyOp implements Operation<VERIFY4args> {
  @Override
  public int op() {
    return Nfs4.OP_NVERIFY;
  }

  @Override
  public VERIFY4args decode(XdrReader r) {
    return VERIFY4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, VERIFY4args a) {
    V4Target t = ctx.current();
    if (ctx.server.attrs.same(a.objAttributes(), t, ctx.fhs().stat(t))) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_SAME, "attributes equal");
    }
    return null;
  }
}
