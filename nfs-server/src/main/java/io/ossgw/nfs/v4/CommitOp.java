package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.v4.xdr.COMMIT4args;
import io.ossgw.nfs.v4.xdr.COMMIT4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * COMMIT (RFC 8881 §18.3): uploads what the file's open handle holds, whatever the range (OSS objects are written
 * whole), and answers only once the bytes are in OSS, with the write verifier; a file with no open handle has nothing
 * unsaved. A failed upload is NFS4ERR_IO (the data stays staged and the next COMMIT, CLOSE or idle release retries).
 * Needs no stateid, like v3 COMMIT. A directory is NFS4ERR_ISDIR, a symbolic link NFS4ERR_SYMLINK, other non-files
 * NFS4ERR_WRONG_TYPE.
 */
final class CommitOp implements Operation<COMMIT4args> {
  @Override
  public int op() {
    return Nfs4.OP_COMMIT;
  }

  @Override
  public COMMIT4args decode(XdrReader r) {
    return COMMIT4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, COMMIT4args a) {
    V4Target t = ctx.current();
    FileAttr cur = ctx.fhs().stat(t);
    OpenStates.regular(cur, t.path());
    try {
      ctx.server.open.commit(t.export(), t.path(), () -> ctx.fhs().stat(t));
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    return new COMMIT4resok(ctx.server.verifier.get());
  }
}
