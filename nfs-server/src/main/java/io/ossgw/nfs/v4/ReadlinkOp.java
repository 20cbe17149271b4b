package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.READLINK4resok;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * READLINK (RFC 8881 §18.24): the target of the symbolic link that is the current filehandle, as the engine stores
 * it (the object body, or ossfs's {@code symlink_in_meta} header). Anything but a symbolic link, pseudo directories
 * included, is NFS4ERR_WRONG_TYPE (§18.24.3: "only allowed on objects of type NF4LNK").
 */
final class ReadlinkOp implements Operation<Void> {
  @Override
  public int op() {
    return Nfs4.OP_READLINK;
  }

  @Override
  public Void decode(XdrReader r) {
    return null;
  }

  @Override
  public XdrType run(CompoundContext ctx, Void none) {
    V4Target t = ctx.current();
    if (t.pseudo()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_WRONG_TYPE, "pseudo directory " + t.path());
    }
    FileAttr a = ctx.fhs().stat(t);
    if (!a.isSymlink()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_WRONG_TYPE, t.path() + " is not a symbolic link");
    }
    try {
      return new READLINK4resok(t.fs().readlink(t.path()));
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }
}
