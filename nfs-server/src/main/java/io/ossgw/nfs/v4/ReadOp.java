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
 * {@link #MAX_READ} bytes per call, and no more than the reply has room for under the session's ca_maxresponsesize
 * (ca_maxresponsesize_cached with sa_cachethis): a short read, as §18.22.4 allows, leaving 4 KiB for the operations
 * after it when there is room for both; without room for one byte, NFS4ERR_REP_TOO_BIG (REP_TOO_BIG_TO_CACHE). The
 * data buffer is allocated only after this, so a COMPOUND of many READs holds no more than its reply may take. An
 * offset past the end gives no data and eof.
 */
final class ReadOp implements Operation<READ4args> {
  /** maxread (1 MiB). */
  static final int MAX_READ = 1 << 20;
  /** A READ result around its data: resop, status, eof, the data's length. */
  static final int RESULT_HEADER = 16;
  /** Room a READ leaves for the operations after it when the reply has plenty. */
  static final int LATER_RESERVE = 4096;

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
    if (offset < 0 || a.count() == 0) {
      return new READ4resok(offset < 0 || offset >= cur.size(), ByteBuffer.allocate(0));
    }
    int count = (int) Math.min(a.count() & 0xffffffffL, Math.min(MAX_READ, room(ctx)));
    if (count <= 0) {
      throw ctx.tooBig("READ");
    }
    ByteBuffer buf = ctx.replyBuffer(count); // read straight into what the reply is sent from
    try {
      ctx.server.open.dropIfStale(t.export(), t.path()); // the version `cur` shows, not the one an older READ opened
      int n = readOnce(ctx, t, caller, offset, buf);
      buf.flip();
      boolean eof = n < count || offset + n >= ctx.fhs().getattr(t).size();
      return new READ4resok(eof, buf);
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }

  /** The data bytes the reply has room for (a multiple of 4: XDR pads the data). */
  private static long room(CompoundContext ctx) {
    long left = ctx.room() - RESULT_HEADER;
    if (ctx.index < ctx.numops - 1 && left > 2 * LATER_RESERVE) {
      left -= LATER_RESERVE;
    }
    return left & ~3L;
  }

  /** One read through the shared handle, retried once on a fresh open if the object changed under it (EIO). */
  private static int readOnce(CompoundContext ctx, V4Target t, Caller caller, long offset, ByteBuffer buf) {
    try {
      return ctx.server.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf),
          () -> ctx.fhs().stat(t));
    } catch (FsException e) {
      if (e.errno() != Errno.EIO) {
        throw e;
      }
      ctx.server.open.invalidate(t.export(), t.path());
      buf.clear();
      return ctx.server.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf),
          () -> ctx.fhs().stat(t));
    }
  }
}
