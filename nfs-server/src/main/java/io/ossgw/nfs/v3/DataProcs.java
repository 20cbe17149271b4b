package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.Writes;
import io.ossgw.nfs.rpc.ReplyMemory;
import io.ossgw.nfs.xdr.COMMIT3args;
import io.ossgw.nfs.xdr.COMMIT3res;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.Payload;
import io.ossgw.nfs.xdr.READ3args;
import io.ossgw.nfs.xdr.READ3res;
import io.ossgw.nfs.xdr.WRITE3args;
import io.ossgw.nfs.xdr.WRITE3res;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.nfs.xdr.wcc_attr;
import io.ossgw.nfs.xdr.wcc_data;
import java.nio.ByteBuffer;

/**
 * READ, WRITE and COMMIT (RFC 1813 §3.3.6, .7, .21) through the shared open handles of {@link io.ossgw.nfs.fs.OpenFiles}.
 *
 * <p>WRITE UNSTABLE goes into the engine's staging (and its streaming multipart upload) and is acknowledged at once;
 * DATA_SYNC and FILE_SYNC upload before the reply (an fsync: the whole file's unsaved data, which for a growing file
 * completes its upload); COMMIT does the same for everything written so far. So a COMMIT that succeeds means the
 * bytes are in OSS, and a restart changes the write verifier, which makes clients re-send what was not committed.
 */
final class DataProcs {
  private final NfsState s;

  DataProcs(NfsState s) {
    this.s = s;
  }

  READ3res read(Call c, READ3args a) {
    Target t = null;
    fattr3 attrs = null;
    try {
      t = s.resolve(c, a.file());
      FileAttr cur = s.stat(t);
      attrs = s.fattr(t, cur);
      regular(cur, t);
      Caller caller = c.caller(t.export());
      if (!Permissions.dataAccess(cur, caller, Permissions.R)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "read permission on " + t.path());
      }
      long offset = a.offset();
      int count = (int) Math.min(a.count() & 0xffffffffL, s.limits.rtmax());
      if (offset < 0 || count == 0) {
        return new READ3res(nfsstat3.NFS3_OK, attrs, 0, offset < 0 || offset >= cur.size(), ByteBuffer.allocate(0));
      }
      ByteBuffer buf = ReplyMemory.forReply(c.rpc, count); // read straight into what the reply is sent from
      s.open.dropIfStale(t.export(), t.path()); // the version `cur` shows, not the one an older READ opened
      int n = readOnce(t, caller, offset, buf);
      buf.flip();
      FileAttr after = s.getattr(t);
      boolean eof = n < count || offset + n >= after.size();
      return new READ3res(nfsstat3.NFS3_OK, s.fattr(t, after), n, eof, buf);
    } catch (NfsError e) {
      return READ3res.fail(e.status, attrs);
    } catch (FsException e) {
      return READ3res.fail(Status.of(e.errno()), attrs);
    }
  }

  /**
   * One read through the shared handle. A handle that pinned an older version of the object fails with EIO once the
   * object changed; it is then dropped and the read retried once on a fresh open.
   */
  private int readOnce(Target t, Caller caller, long offset, ByteBuffer buf) {
    try {
      return s.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf), () -> s.stat(t));
    } catch (FsException e) {
      if (e.errno() != Errno.EIO) {
        throw e;
      }
      s.open.invalidate(t.export(), t.path());
      buf.clear();
      return s.open.with(t.export(), t.path(), caller, h -> t.fs().read(h, offset, buf), () -> s.stat(t));
    }
  }

  WRITE3res write(Call c, WRITE3args a) {
    Target t = null;
    wcc_attr before = null;
    try {
      t = s.resolve(c, a.file());
      FileAttr cur = s.stat(t);
      before = s.fattr(t, cur).wcc();
      if (t.export().readOnly()) {
        throw new NfsError(nfsstat3.NFS3ERR_ROFS, t.export().path());
      }
      regular(cur, t);
      Caller caller = c.caller(t.export());
      if (!Permissions.dataAccess(cur, caller, Permissions.W)) {
        throw new NfsError(nfsstat3.NFS3ERR_ACCES, "write permission on " + t.path());
      }
      Payload data = a.data().truncate(a.count() & 0xffffffffL);
      long offset = a.offset();
      if (offset < 0 || offset + data.length() > AttrProcs.MAX_FILE_SIZE) {
        throw new NfsError(nfsstat3.NFS3ERR_FBIG, "write beyond the largest object");
      }
      boolean sync = a.stable() != Nfs3.UNSTABLE;
      Target target = t;
      int killed = Permissions.killPrivileges(cur, caller);
      int n = s.open.with(t.export(), t.path(), caller, h -> {
        if (killed >= 0) {
          target.fs().setattr(target.path(), SetAttr.mode(killed), h, caller);
        }
        int w = Writes.write(target.fs(), h, offset, data);
        if (sync) {
          target.fs().fsync(h, a.stable() == Nfs3.DATA_SYNC);
        }
        return w;
      }, () -> s.stat(target)); // a RENAME that ran whole since the stat: Moved, and the WRITE runs at the new name
      return new WRITE3res(nfsstat3.NFS3_OK, s.wcc(before, t), n, sync ? Nfs3.FILE_SYNC : Nfs3.UNSTABLE,
          s.writeVerifier());
    } catch (NfsError e) {
      return WRITE3res.fail(e.status, new wcc_data(before, t == null ? null : s.postOp(t)));
    } catch (FsException e) {
      return WRITE3res.fail(Status.of(e.errno()), new wcc_data(before, s.postOp(t)));
    }
  }

  /** Uploads what is unsaved of the file, whatever the range asked: OSS objects are written whole. */
  COMMIT3res commit(Call c, COMMIT3args a) {
    Target t = null;
    wcc_attr before = null;
    try {
      t = s.resolve(c, a.file());
      FileAttr cur = s.stat(t);
      before = s.fattr(t, cur).wcc();
      regular(cur, t);
      Target target = t;
      s.open.commit(t.export(), t.path(), () -> s.stat(target));
      return new COMMIT3res(nfsstat3.NFS3_OK, s.wcc(before, t), s.writeVerifier());
    } catch (NfsError e) {
      return COMMIT3res.fail(e.status, new wcc_data(before, t == null ? null : s.postOp(t)));
    } catch (FsException e) {
      return COMMIT3res.fail(Status.of(e.errno()), new wcc_data(before, s.postOp(t)));
    }
  }

  private static void regular(FileAttr a, Target t) {
    if (a.isDirectory()) {
      throw new NfsError(nfsstat3.NFS3ERR_ISDIR, t.path());
    }
    if (!a.isRegular()) {
      throw new NfsError(nfsstat3.NFS3ERR_INVAL, t.path() + " is not a regular file");
    }
  }
}
