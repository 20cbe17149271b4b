package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * RESTOREFH (RFC 8881 §18.27): the saved filehandle becomes current again; NFS4ERR_RESTOREFH if nothing was
 * saved in this compound.
 */
final class RestoreFhOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_RESTOREFH;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void a) {
    if (ctx.saved == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_RESTOREFH, "no saved filehandle");
    }
    ctx.current = ctx.saved;
    return null;
  }
}
