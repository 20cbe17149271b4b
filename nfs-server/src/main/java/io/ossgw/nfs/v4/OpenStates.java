package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.state.StateTable;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;

/**
 * The checks OPEN, OPEN_DOWNGRADE, CLOSE, READ, WRITE and COMMIT share: what a stateid names for the current
 * filehandle (RFC 8881 §8.2.2-§8.2.4, §16.2.3.1.2) and whether the object is a regular file (§18.16.3, §18.22.3,
 * §18.32.3: a directory is NFS4ERR_ISDIR, a symbolic link NFS4ERR_SYMLINK, anything else NFS4ERR_WRONG_TYPE).
 */
final class OpenStates {
  private OpenStates() {}

  /**
   * The open a READ or WRITE stateid stands for: its open state, the open of a lock stateid, or null for the
   * anonymous and READ-bypass special stateids (the caller then checks permissions and share reservations as for a
   * client with no open).
   *
   * @throws Nfs4Exception NFS4ERR_BAD_STATEID (unknown, freed, another client's, another file's, the current stateid
   *     with none set, any other special stateid), NFS4ERR_OLD_STATEID (a superseded seqid)
   */
  static OpenState forIo(CompoundContext ctx, stateid4 given, V4Target t) {
    stateid4 id = ctx.stateid(given);
    if (id.equals(stateid4.ANONYMOUS) || id.equals(stateid4.BYPASS)) {
      return null;
    }
    StateTable.State s = ctx.server.states.get(id, StateTable.State.class);
    OpenState open = s instanceof OpenState o ? o : s instanceof OpenState.Derived d ? d.open() : null;
    check(ctx, s, open, t);
    return open;
  }

  /**
   * The open state an OPEN_DOWNGRADE or CLOSE names.
   *
   * @throws Nfs4Exception as {@link #forIo}, and NFS4ERR_BAD_STATEID for a special or lock stateid
   */
  static OpenState open(CompoundContext ctx, stateid4 given, V4Target t) {
    stateid4 id = ctx.stateid(given);
    OpenState o = ctx.server.states.get(id, OpenState.class);
    check(ctx, o, o, t);
    return o;
  }

  private static void check(CompoundContext ctx, StateTable.State s, OpenState open, V4Target t) {
    if (open == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, "not an open or lock stateid: " + s);
    }
    if (ctx.session == null || s.client() != ctx.session.client()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, s + " belongs to another client");
    }
    if (t.pseudo() || !open.isOf(t.export(), t.fileid())) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, s + " is not of " + t.path());
    }
  }

  /**
   * Whether an object may be opened, read or written.
   *
   * @throws Nfs4Exception NFS4ERR_ISDIR, NFS4ERR_SYMLINK, NFS4ERR_WRONG_TYPE
   */
  static void regular(FileAttr a, String path) {
    if (a.isRegular()) {
      return;
    }
    throw new Nfs4Exception(a.isDirectory() ? Nfs4.NFS4ERR_ISDIR : a.isSymlink() ? Nfs4.NFS4ERR_SYMLINK
        : Nfs4.NFS4ERR_WRONG_TYPE, path + " is not a regular file");
  }

  /**
   * A READ or WRITE under a special stateid meets the share reservations of every open (RFC 8881 §9.7: an anonymous
   * READ is refused by a DENY_READ, a WRITE by a DENY_WRITE; the READ-bypass stateid skips this for READ), and during
   * the grace period waits like new state (as Linux knfsd answers).
   *
   * @param deny OPEN4_SHARE_DENY_READ for READ, OPEN4_SHARE_DENY_WRITE for WRITE
   * @throws Nfs4Exception NFS4ERR_LOCKED (a deny conflicts), NFS4ERR_GRACE
   */
  static void special(CompoundContext ctx, V4Target t, int deny) {
    ctx.server.grace.checkNonReclaim();
    for (OpenState o : ctx.server.opens.of(t.export(), t.fileid())) {
      if ((o.deny() & deny) != 0) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_LOCKED, "denied by " + o);
      }
    }
  }
}
