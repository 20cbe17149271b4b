package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * SAVEFH (RFC 8881 §18.28): the current filehandle becomes the saved one (for RENAME, LINK and RESTOREFH).
 */
final class SaveFhOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_SAVEFH;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void a) {
    ctx.saved = ctx.current();
    return null;
  }
}
