package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.CLOSE4args;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * CLOSE (RFC 8881 §18.2): ends an open (its stateid no longer resolves), uploads what the file's open handle holds, as
 * close(2) does over FUSE (SEMANTICS.md), through the handle the open pinned (so under the file's current name even
 * when a RENAME moved it after this compound's PUTFH resolved the old one), then lets the handle go (it stays for the idle time if NFSv3 or another
 * open uses it). CLOSE has no error for a failed upload: it still closes, logs, and the idle release retries the
 * upload (giving up changes the write verifier); a client that needs the bytes durable COMMITs first, as Linux does
 * on close(2). Replies with the invalid special stateid (§18.2.4) and makes it the current stateid.
 *
 * <p>Errors: NFS4ERR_BAD_STATEID (a lock or special stateid, another client's, another file's), NFS4ERR_OLD_STATEID,
 * NFS4ERR_LOCKS_HELD while a lock owner holds byte-range locks through the open ({@link LockState#held}); a CLOSE
 * frees the open's lock stateids with it.
 */
final class CloseOp implements Operation<CLOSE4args> {
  private static final System.Logger LOG = System.getLogger(CloseOp.class.getName());

  @Override
  public int op() {
    return Nfs4.OP_CLOSE;
  }

  @Override
  public CLOSE4args decode(XdrReader r) {
    return CLOSE4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, CLOSE4args a) {
    V4Target t = ctx.current();
    OpenState o = OpenStates.open(ctx, a.openStateid(), t);
    if (LockState.held(ctx.server, o)) { // §18.2.3: the client unlocks first
      throw new Nfs4Exception(Nfs4.NFS4ERR_LOCKS_HELD, o + " has byte-range locks");
    }
    LockState.closed(ctx.server, o); // the open's lock stateids go with it
    OpenFiles.Pin pin = ctx.server.opens.close(o);
    if (pin != null) {
      try {
        pin.commit(); // by the open's own handle, not by path: a RENAME since PUTFH resolved the path cannot miss it
      } catch (FsException e) {
        LOG.log(System.Logger.Level.WARNING, "upload at CLOSE of " + t.path() + " failed (the idle release retries): "
            + e.getMessage());
      } finally {
        pin.unpin();
      }
    }
    ctx.currentStateid(stateid4.INVALID);
    return stateid4.INVALID;
  }
}
