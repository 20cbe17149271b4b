package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.FsStats;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.auth.SetAttrRules;
import io.ossgw.nfs.xdr.ACCESS3args;
import io.ossgw.nfs.xdr.ACCESS3res;
import io.ossgw.nfs.xdr.FSINFO3args;
import io.ossgw.nfs.xdr.FSINFO3res;
import io.ossgw.nfs.xdr.FSSTAT3args;
import io.ossgw.nfs.xdr.FSSTAT3res;
import io.ossgw.nfs.xdr.GETATTR3args;
import io.ossgw.nfs.xdr.GETATTR3res;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.PATHCONF3args;
import io.ossgw.nfs.xdr.PATHCONF3res;
import io.ossgw.nfs.xdr.SETATTR3args;
import io.ossgw.nfs.xdr.SETATTR3res;
import io.ossgw.nfs.xdr.fattr3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.nfs.xdr.nfstime3;
import io.ossgw.nfs.xdr.sattr3;
import io.ossgw.nfs.xdr.wcc_attr;
import io.ossgw.nfs.xdr.wcc_data;
import java.time.Instant;

/** GETATTR, SETATTR, ACCESS, FSSTAT, FSINFO and PATHCONF (RFC 1813 §3.3.1, .2, .4, .18, .19, .20). */
final class AttrProcs {
  /** OSS's largest object: 10,000 parts of 5 GiB (48.8 TiB). */
  static final long MAX_FILE_SIZE = 10_000L * 5 * 1024 * 1024 * 1024;

  private final NfsState s;

  AttrProcs(NfsState s) {
    this.s = s;
  }

  GETATTR3res getattr(Call c, GETATTR3args a) {
    try {
      Target t = s.resolve(c, a.object());
      return new GETATTR3res(nfsstat3.NFS3_OK, s.fattr(t, s.stat(t)));
    } catch (NfsError e) {
      return GETATTR3res.fail(e.status);
    }
  }

  /**
   * Checks as Linux's setattr_prepare does: chmod by the owner or root (a non-member loses the setgid bit), chown to
   * another uid by root only, chgrp by root or by the owner to one of its groups, truncate with write permission,
   * times by the owner (or to "now" with write permission); a chown of a non-directory drops setuid (and setgid with
   * group execute).
   */
  SETATTR3res setattr(Call c, SETATTR3args a) {
    Target t = null;
    wcc_attr before = null;
    try {
      t = s.resolve(c, a.object());
      FileAttr cur = s.stat(t);
      fattr3 curAttrs = s.fattr(t, cur);
      before = curAttrs.wcc();
      if (a.guard() != null && !a.guard().equals(curAttrs.ctime())) {
        throw new NfsError(nfsstat3.NFS3ERR_NOT_SYNC, "ctime guard");
      }
      if (t.export().readOnly()) {
        throw new NfsError(nfsstat3.NFS3ERR_ROFS, t.export().path());
      }
      Caller caller = c.caller(t.export());
      SetAttr changes = check(cur, a.newAttributes(), caller);
      if (changes.size() != null && (cur.isSymlink() || cur.type().special())) {
        throw new NfsError(nfsstat3.NFS3ERR_INVAL, "size of a symlink or special file"); // truncate(2): EINVAL
      }
      FileAttr after = changes.changesMeta() || changes.size() != null
          ? t.fs().setattr(t.path(), changes, null, caller) : cur;
      return new SETATTR3res(nfsstat3.NFS3_OK, new wcc_data(before, s.fattr(t, after)));
    } catch (NfsError e) {
      return new SETATTR3res(e.status, new wcc_data(before, t == null ? null : s.postOp(t)));
    } catch (FsException e) {
      return new SETATTR3res(Status.of(e.errno()), new wcc_data(before, s.postOp(t)));
    }
  }

  /** {@link SetAttrRules} for NFSv3 attributes (RFC 1813 §3.3.2), so v3 and v4 allow and refuse alike. */
  static SetAttr check(FileAttr cur, sattr3 n, Caller c) {
    try {
      Integer mode = SetAttrRules.checkOwnership(cur, n.mode(), n.uid(), n.gid(), n.size() != null, c);
      SetAttrRules.checkTime(n.setAtime() == Nfs3.SET_TO_SERVER_TIME || n.setMtime() == Nfs3.SET_TO_SERVER_TIME,
          n.setAtime() == Nfs3.SET_TO_CLIENT_TIME || n.setMtime() == Nfs3.SET_TO_CLIENT_TIME, cur, c);
      Instant now = Instant.now();
      return new SetAttr(mode, n.uid(), n.gid(), n.size(), time(n.setAtime(), n.atime(), now),
          time(n.setMtime(), n.mtime(), now));
    } catch (SetAttrRules.Refused r) {
      throw new NfsError(r.perm() ? nfsstat3.NFS3ERR_PERM : nfsstat3.NFS3ERR_ACCES, r.getMessage());
    }
  }

  private static Instant time(int how, nfstime3 t, Instant now) {
    return switch (how) {
      case Nfs3.SET_TO_SERVER_TIME -> now;
      case Nfs3.SET_TO_CLIENT_TIME -> t.toInstant();
      default -> null;
    };
  }

  ACCESS3res access(Call c, ACCESS3args a) {
    Target t = null;
    try {
      t = s.resolve(c, a.object());
      FileAttr cur = s.stat(t);
      int granted = Permissions.access(cur, c.caller(t.export()), a.access(), t.export().readOnly());
      return new ACCESS3res(nfsstat3.NFS3_OK, s.fattr(t, cur), granted);
    } catch (NfsError e) {
      return ACCESS3res.fail(e.status, t == null ? null : s.postOp(t));
    }
  }

  FSSTAT3res fsstat(Call c, FSSTAT3args a) {
    Target t = null;
    try {
      t = s.resolve(c, a.fsroot());
      fattr3 attrs = s.fattr(t, s.stat(t));
      FsStats st = t.fs().statfs();
      long bytes = st.totalBlocks() * st.blockSize();
      long free = st.freeBlocks() * st.blockSize();
      return new FSSTAT3res(nfsstat3.NFS3_OK, attrs, bytes, free, free, st.totalFiles(), st.freeFiles(),
          st.freeFiles(), 0);
    } catch (NfsError e) {
      return FSSTAT3res.fail(e.status, t == null ? null : s.postOp(t));
    } catch (FsException e) {
      return FSSTAT3res.fail(Status.of(e.errno()), s.postOp(t));
    }
  }

  FSINFO3res fsinfo(Call c, FSINFO3args a) {
    Target t = null;
    try {
      t = s.resolve(c, a.fsroot());
      fattr3 attrs = s.fattr(t, s.stat(t));
      Nfs3Limits l = s.limits;
      return new FSINFO3res(nfsstat3.NFS3_OK, attrs, l.rtmax(), l.rtmax(), 4096, l.wtmax(), l.wtmax(), 4096,
          l.dtpref(), MAX_FILE_SIZE, new nfstime3(0, 1),
          Nfs3.FSF3_SYMLINK | Nfs3.FSF3_HOMOGENEOUS | Nfs3.FSF3_CANSETTIME);
    } catch (NfsError e) {
      return FSINFO3res.fail(e.status, t == null ? null : s.postOp(t));
    }
  }

  PATHCONF3res pathconf(Call c, PATHCONF3args a) {
    Target t = null;
    try {
      t = s.resolve(c, a.object());
      fattr3 attrs = s.fattr(t, s.stat(t));
      return new PATHCONF3res(nfsstat3.NFS3_OK, attrs, 1, 255, true, true, false, true);
    } catch (NfsError e) {
      return PATHCONF3res.fail(e.status, t == null ? null : s.postOp(t));
    }
  }
}
