package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.READ4args;
import io.ossgw.nfs.v4.xdr.READ4resok;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.nio.ByteBuffer;

/**
 * READ (RFC 8881 §18.22) through the open handle NFSv3 shares ({@link io.ossgw.nfs.fs.OpenFiles}), with v3 READ's
 * engine calls: the handle is dropped when it shows an older version of the object than its attributes, and a read
 * that fails with EIO on a handle whose object changed is retried once on a fresh open.
 *
 * <p>Stateids: an open (or lock) stateid of this client and file; an open for WRITE only still reads when the mode
 * bits allow it (§18.22.3); the anonymous stateid is checked against share reservations (NFS4ERR_LOCKED) and the
 * grace period, the READ-bypass stateid against neither; both against the mode bits as v3 (NFS4ERR_ACCESS). At most
 * {@link #MAX_READ} bytes per call (less if the session's ca_maxresponsesize is smaller); an offset past the end gives no data and eof.
 */
final class ReadOp implements Operation<READ4args> {
  /** maxread (1 MiB). */
  static final int MAX_READ = 1 << 20;

  @Override
  public int op() {
    return Nfs4.OP_READ;
  }

  @Override
  public READ4args decode(XdrReader r) {
    return READ4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, READ4args a) {
    V4Target t = ctx.current();
    FileAttr cur = ctx.fhs().stat(t);
    OpenStates.regular(cur, t.path());
    OpenState open = OpenStates.forIo(ctx, a.stateid(), t);
    Caller caller = ctx.caller();
    if (open == null && !ctx.stateid(a.stateid()).equals(stateid4.BYPASS)) {
      OpenStates.special(ctx, t, Nfs4.OPEN4_SHARE_DENY_READ);
    }
    if ((open == null || (open.access() & Nfs4.OPEN4_SHARE_ACCESS_READ) == 0)
        && !Permissions.dataAccess(cur, caller, Permissions.R)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "read permission on " + t.path());
    }
    long offset = a.offset();
    // within the session's reply size, less room for the compound's other results
    long room = ctx.session == null ? MAX_READ
        : Math.max(4096, (ctx.session.fore().maxresponsesize() & 0xffffffffL) - 4096);
    int count = (int) Math.min(a.count() & 0xffffffffL, Math.min(MAX_READ, room));
    if (offset < 0 || count == 0) {
      return new READ4resok(offset < 0 || offset >= cur.size(), ByteBuffer.allocate(0));
    }
    ByteBuffer buf = ctx.replyBuffer(count); // read straight into what the reply is sent from
    try {
      ctx.server.open.dropIfStale(t.export(), t.path()); // the version `cur` shows, not the one an older READ opened
      int n = readOnce(ctx, t, caller, offset, buf);
      buf.flip();
      if (ctx.session != null
          && Integer.compareUnsigned(n, ctx.session.fore().maxresponsesizeCached()) > 0) {
        ctx.overCacheSize = true; // the reply goes out without a copy for the slot cache
      }
      boolean eof = n < count || offset + n >= t.fs().getattr(t.path()).size();
      return new READ4resok(eof, buf);
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }

  /** One read through the shared handle, retried once on a fresh open if the object changed under it (EIO). */
  private static int readOnce(CompoundContext ctx, V4Target t, Caller caller, long offset, ByteBuffer buf) {
    try {
      return ctx.server.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf));
    } catch (FsException e) {
      if (e.errno() != Errno.EIO) {
        throw e;
      }
      ctx.server.open.invalidate(t.export(), t.path());
      buf.clear();
      return ctx.server.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf));
    }
  }
}
