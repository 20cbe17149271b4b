package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.GETFH4resok;
import io.ossgw.nfs.v4.xdr.nfs_fh4;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * GETFH (RFC 8881 §18.8): the current filehandle (NFS4ERR_NOFILEHANDLE without one).
 */
final class GetFhOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_GETFH;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void a) {
    return new GETFH4resok(new nfs_fh4(ctx.current().fh()));
  }
}
