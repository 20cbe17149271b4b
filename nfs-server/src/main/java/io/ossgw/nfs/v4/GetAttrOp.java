package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.v4.xdr.GETATTR4args;
import io.ossgw.nfs.v4.xdr.GETATTR4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * GETATTR (RFC 8881 §18.7): the asked attributes of the current filehandle this server supports (others are
 * left out, not an error); a write-only attribute asked is NFS4ERR_INVAL; an object gone is NFS4ERR_STALE.
 */
final class GetAttrOp implements Operation<GETATTR4args> {
  @Override
  public int op() {
    return Nfs4.OP_GETATTR;
  }

  @Override
  public GETATTR4args decode(XdrReader r) {
    return GETATTR4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, GETATTR4args a) {
    V4Target t = ctx.current();
    Fattr4.checkReadable(a.attrRequest());
    FileAttr attrs = ctx.fhs().stat(t);
    return new GETATTR4resok(ctx.server.attrs.encode(a.attrRequest(), t, attrs));
  }
}
