package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.LINK4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * LINK (RFC 8881 §18.9): OSS has no hard links, so every LINK that gets past the checks fails with v3 LINK's
 * decision (v3 CreateProcs.link): NFS4ERR_ROFS on a read-only export, else NFS4ERR_PERM, which the Linux client hands
 * to link(2) as EPERM, the errno POSIX gives for a file system without hard links and the one FUSE answers. The
 * checks before it, in this order: no saved filehandle NFS4ERR_NOFILEHANDLE; the source and the directory in
 * different file systems (two exports, an export and the pseudo file system) NFS4ERR_XDEV; the name's ({@link
 * Component4#check}); a pseudo directory NFS4ERR_ROFS; a current filehandle that is not a directory NFS4ERR_NOTDIR; a
 * directory as the source NFS4ERR_ISDIR. Nothing is created and no OSS request is made beyond the two getattrs.
 */
final class LinkOp implements Operation<LINK4args> {
  @Override
  public int op() {
    return Nfs4.OP_LINK;
  }

  @Override
  public LINK4args decode(XdrReader r) {
    return LINK4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, LINK4args a) {
    V4Target dir = ctx.current();
    V4Target source = ChangedDir.savedInSameFs(ctx);
    Component4.check(a.newname());
    if (dir.pseudo()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, "pseudo directory " + dir.path());
    }
    if (!ctx.fhs().stat(dir).isDirectory()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOTDIR, dir.path());
    }
    FileAttr src = ctx.fhs().stat(source);
    if (src.isDirectory()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ISDIR, "hard link to directory " + source.path());
    }
    throw new Nfs4Exception(dir.export().readOnly() ? Nfs4.NFS4ERR_ROFS : Nfs4.NFS4ERR_PERM,
        "OSS has no hard links");
  }
}
