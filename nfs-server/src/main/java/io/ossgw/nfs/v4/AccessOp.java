package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.xdr.ACCESS4args;
import io.ossgw.nfs.v4.xdr.ACCESS4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * ACCESS (RFC 8881 §18.1): which of the asked ACCESS4_* rights the caller has on the current filehandle, decided as
 * v3 ACCESS decides ({@link Permissions#access}; the ACCESS4 bits are ACCESS3's). Every asked right of the six
 * RFC 8881 defines is reported as supported (the server judged it); other bits (RFC 8276's xattr rights, which a
 * 4.2 client may ask) are neither supported nor granted, not an error, so a newer client still gets an answer. A pseudo
 * directory grants READ and LOOKUP only (it is read-only).
 */
final class AccessOp implements Operation<ACCESS4args> {
  private static final int ALL = Nfs4.ACCESS4_READ | Nfs4.ACCESS4_LOOKUP | Nfs4.ACCESS4_MODIFY | Nfs4.ACCESS4_EXTEND
      | Nfs4.ACCESS4_DELETE | Nfs4.ACCESS4_EXECUTE;

  @Override
  public int op() {
    return Nfs4.OP_ACCESS;
  }

  @Override
  public ACCESS4args decode(XdrReader r) {
    return ACCESS4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, ACCESS4args a) {
    V4Target t = ctx.current();
    int asked = a.access() & ALL;
    FileAttr cur = ctx.fhs().stat(t);
    int granted = t.pseudo() ? asked & (Nfs4.ACCESS4_READ | Nfs4.ACCESS4_LOOKUP)
        : Permissions.access(cur, ctx.caller(), asked, t.export().readOnly());
    return new ACCESS4resok(asked, granted);
  }
}
