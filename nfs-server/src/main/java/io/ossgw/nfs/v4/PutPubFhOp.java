package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * PUTPUBFH (RFC 8881 §18.20): the public filehandle, which on this server is the root filehandle (§2.6.3.1.1.4
 * allows it; there is no WebNFS public export).
 */
final class PutPubFhOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_PUTPUBFH;
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
