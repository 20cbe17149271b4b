package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * PUTROOTFH (RFC 8881 §18.21): the root of the server's name space, the pseudo file system's "/" (or the export
 * of "/" if there is one), as the current filehandle.
 */
final class PutRootFhOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_PUTROOTFH;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void a) {
    ctx.current = ctx.fhs().root(ctx.peer);
    return null;
  }
}
