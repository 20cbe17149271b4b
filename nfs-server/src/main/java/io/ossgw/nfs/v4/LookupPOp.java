package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * LOOKUPP (RFC 8881 §18.14): the current filehandle becomes its parent directory. At an export's root that is the
 * pseudo directory above it; at the pseudo root NFS4ERR_NOENT. The current object must be a directory the caller may
 * search (SYMLINK, NOTDIR, ACCESS as {@link LookupOp}).
 */
final class LookupPOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_LOOKUPP;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void a) {
    V4Target dir = ctx.current();
    LookupOp.searchable(ctx, dir);
    ctx.current = ctx.fhs().parent(dir, ctx.peer);
    return null;
  }
}
