package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.Writes;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.WRITE4args;
import io.ossgw.nfs.v4.xdr.WRITE4resok;
import io.ossgw.nfs.xdr.Payload;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * WRITE (RFC 8881 §18.32) through the open handle NFSv3 shares, with v3's durability: UNSTABLE4 goes into the
 * engine's staging and is acknowledged at once (committed UNSTABLE4); DATA_SYNC4 and FILE_SYNC4 upload the file's
 * unsaved data before the reply (committed FILE_SYNC4: OSS objects are written whole, so the whole file is durable).
 * The verifier is the server's ({@link io.ossgw.nfs.fs.WriteVerifier}): it changes on restart and when staged data is
 * given up, so clients re-send what they had not seen committed.
 *
 * <p>Errors: an open without WRITE access NFS4ERR_OPENMODE; the anonymous (and, as Linux knfsd treats it, the
 * READ-bypass) stateid checked against DENY_WRITE reservations (NFS4ERR_LOCKED), the grace period (NFS4ERR_GRACE) and
 * the mode bits (NFS4ERR_ACCESS); a read-only export NFS4ERR_ROFS; data past the largest object NFS4ERR_FBIG. A write
 * by anyone but root drops setuid/setgid as v3 WRITE does.
 */
final class WriteOp implements Operation<WRITE4args> {
  /** The largest object: 10,000 parts of 5 GiB. */
  static final long MAX_FILE_SIZE = 10_000L * 5 * 1024 * 1024 * 1024;

  @Override
  public int op() {
    return Nfs4.OP_WRITE;
  }

  @Override
  public WRITE4args decode(XdrReader r) {
    return WRITE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, WRITE4args a) {
    V4Target t = ctx.current();
    FileAttr cur = ctx.fhs().stat(t);
    OpenStates.regular(cur, t.path());
    OpenState open = OpenStates.forIo(ctx, a.stateid(), t);
    Caller caller = ctx.caller();
    if (open != null) {
      if ((open.access() & Nfs4.OPEN4_SHARE_ACCESS_WRITE) == 0) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_OPENMODE, open + " is not open for writing");
      }
    } else {
      OpenStates.special(ctx, t, Nfs4.OPEN4_SHARE_DENY_WRITE);
      if (!Permissions.dataAccess(cur, caller, Permissions.W)) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "write permission on " + t.path());
      }
    }
    if (t.export().readOnly()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, t.export().path());
    }
    Payload data = a.data();
    long offset = a.offset();
    if (offset < 0 || offset + data.length() > MAX_FILE_SIZE) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_FBIG, "write beyond the largest object");
    }
    boolean sync = a.stable() != Nfs4.UNSTABLE4;
    int killed = Permissions.killPrivileges(cur, caller);
    try {
      int n = ctx.server.open.with(t.export(), t.path(), caller, h -> {
        if (killed >= 0) {
          t.fs().setattr(t.path(), SetAttr.mode(killed), h, caller);
        }
        int w = Writes.write(t.fs(), h, offset, data);
        if (sync) {
          t.fs().fsync(h, a.stable() == Nfs4.DATA_SYNC4);
        }
        return w;
      }, () -> ctx.fhs().stat(t)); // a RENAME that ran whole since the stat: V4Moved, the WRITE runs at the new name
      return new WRITE4resok(n, sync ? Nfs4.FILE_SYNC4 : Nfs4.UNSTABLE4, ctx.server.verifier.get());
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }
}
