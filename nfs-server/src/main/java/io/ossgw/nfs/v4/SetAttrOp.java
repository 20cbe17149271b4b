package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.nfs.auth.SetAttrRules;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.SETATTR4args;
import io.ossgw.nfs.v4.xdr.SETATTR4res;
import io.ossgw.nfs.v4.xdr.stateid4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.time.Instant;

/**
 * SETATTR (RFC 8881 §18.30): sets mode, owner, owner_group, size and the times of the current filehandle; the reply's
 * attrsset is what was set (empty on failure). Errors: the attributes as {@link Fattr4#decodeSet} (ATTRNOTSUPP,
 * INVAL, BADOWNER); a pseudo directory or a read-only export NFS4ERR_ROFS; a size on a directory NFS4ERR_ISDIR, on a
 * symbolic link or special file NFS4ERR_INVAL; the stateid of a size change as WRITE checks it (§18.30.3: an open
 * without WRITE access NFS4ERR_OPENMODE, another client's or file's stateid NFS4ERR_BAD_STATEID, the special stateids
 * against DENY_WRITE NFS4ERR_LOCKED and in the grace period NFS4ERR_GRACE).
 * Permissions as v3 SETATTR checks them (Linux setattr_prepare): chmod by the owner or root, chown by root, chgrp by
 * the owner to one of its groups, truncate with write permission, times by the owner (to "now" with write
 * permission). A client guards a SETATTR with VERIFY (the v3 ctime guard): NFS4ERR_NOT_SAME there.
 */
final class SetAttrOp implements Operation<SETATTR4args> {
  @Override
  public int op() {
    return Nfs4.OP_SETATTR;
  }

  @Override
  public SETATTR4args decode(XdrReader r) {
    return SETATTR4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, SETATTR4args a) {
    V4Target t = ctx.current();
    Sattr4 n = Fattr4.decodeSet(a.objAttributes());
    if (t.pseudo() || t.export().readOnly()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, t.pseudo() ? "pseudo directory " + t.path() : t.export().path());
    }
    FileAttr cur = ctx.fhs().stat(t);
    if (n.size() != null) {
      if (cur.isDirectory()) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_ISDIR, "size of a directory");
      }
      if (!cur.isRegular()) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "size of a symlink or special file"); // truncate(2): EINVAL
      }
      sizeChangeAllowed(ctx, a.stateid(), t);
    }
    Caller caller = ctx.caller();
    SetAttr changes = check(cur, n, caller, Instant.now());
    if (changes.changesMeta() || changes.size() != null) {
      try {
        t.fs().setattr(t.path(), changes, null, caller);
      } catch (FsException e) {
        throw V4Status.error(e);
      }
    }
    return new SETATTR4res(n.attrsset());
  }

  /**
   * The state checks of a size change (RFC 8881 §18.30.3), as WRITE makes them ({@link OpenStates}): the stateid
   * (the current stateid resolved) must be an open or lock stateid of this client for this file whose open has WRITE
   * access, or the anonymous or READ-bypass stateid; with those the change meets every open's DENY_WRITE
   * (NFS4ERR_LOCKED) and waits out the grace period (NFS4ERR_GRACE), since it could conflict with state not yet
   * reclaimed.
   *
   * @throws Nfs4Exception BAD_STATEID, OLD_STATEID, OPENMODE, LOCKED, GRACE
   */
  private static void sizeChangeAllowed(CompoundContext ctx, stateid4 id, V4Target t) {
    OpenState open = OpenStates.forIo(ctx, id, t);
    if (open == null) {
      OpenStates.special(ctx, t, Nfs4.OPEN4_SHARE_DENY_WRITE);
    } else if ((open.access() & Nfs4.OPEN4_SHARE_ACCESS_WRITE) == 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_OPENMODE, open + " is not open for writing");
    }
  }

  /** {@link SetAttrRules} for NFSv4 attributes, so v3 and v4 allow and refuse alike. */
  static SetAttr check(FileAttr cur, Sattr4 n, Caller c, Instant now) {
    Integer mode;
    try {
      mode = SetAttrRules.checkOwnership(cur, n.mode(), n.uid(), n.gid(), n.size() != null, c);
      SetAttrRules.checkTime(n.atimeHow() == Nfs4.SET_TO_SERVER_TIME4 || n.mtimeHow() == Nfs4.SET_TO_SERVER_TIME4,
          n.atimeHow() == Nfs4.SET_TO_CLIENT_TIME4 || n.mtimeHow() == Nfs4.SET_TO_CLIENT_TIME4, cur, c);
    } catch (SetAttrRules.Refused r) {
      throw new Nfs4Exception(r.perm() ? Nfs4.NFS4ERR_PERM : Nfs4.NFS4ERR_ACCESS, r.getMessage());
    }
    SetAttr s = n.toSetAttr(now);
    return new SetAttr(mode, s.uid(), s.gid(), s.size(), s.atime(), s.mtime());
  }
}
