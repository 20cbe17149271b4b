package io.ossgw.nfs.v4;

import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.change_info4;

/**
 * The directory a CREATE, REMOVE, RENAME or LINK changes, checked as v3's CreateProcs/RemoveProcs check it, and its
 * change_info4 (RFC 8881 §3.3.10): the directory's change attribute before the operation and after it. The two are
 * separate getattr calls, not taken atomically with the change, so {@code atomic} is false and the client revalidates
 * its cache of the directory rather than trusting it.
 */
final class ChangedDir {
  final V4Target dir;
  final FileAttr attr;
  /** The caller after the export's squashing. */
  final Caller caller;
  private final ServerState server;
  private final long before;

  private ChangedDir(ServerState server, V4Target dir, FileAttr attr, Caller caller) {
    this.server = server;
    this.dir = dir;
    this.attr = attr;
    this.caller = caller;
    this.before = Fattr4.change(attr);
  }

  /**
   * The directory {@code t}, checked for a change by the compound's caller.
   *
   * @throws Nfs4Exception ROFS (a pseudo directory, RFC 8881 §7.3, or a read-only export), STALE (gone), NOTDIR (not
   *     a directory), ACCESS (no write and search permission)
   */
  static ChangedDir of(CompoundContext ctx, V4Target t) {
    if (t.pseudo()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, "pseudo directory " + t.path());
    }
    FileAttr a = ctx.fhs().stat(t);
    if (!a.isDirectory()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOTDIR, t.path());
    }
    if (t.export().readOnly()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, t.export().path());
    }
    Caller c = ctx.fhs().caller(ctx.peer, t);
    if (!Permissions.canModifyDir(a, c)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "write permission on " + t.path());
    }
    return new ChangedDir(ctx.server, t, a, c);
  }

  /**
   * The saved filehandle of an operation on two filehandles (RENAME, LINK: RFC 8881 §18.26.3, §18.9.3), which must be
   * in the file system of the current one.
   *
   * @throws Nfs4Exception NOFILEHANDLE (no current or saved filehandle), XDEV (two exports, or an export and the
   *     pseudo file system)
   */
  static V4Target savedInSameFs(CompoundContext ctx) {
    V4Target current = ctx.current();
    V4Target saved = ctx.saved;
    if (saved == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOFILEHANDLE, "no saved filehandle");
    }
    if (saved.pseudo() != current.pseudo() || !saved.pseudo() && saved.export().id() != current.export().id()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_XDEV, saved.path() + " and " + current.path() + " are in two file systems");
    }
    return saved;
  }

  /** The VFS path of entry {@code name} (a checked component). */
  String child(String name) {
    return VPaths.child(dir.path(), name);
  }

  /** change_info4 from the change attribute at {@link #of} and now (the same value if the directory is gone). */
  change_info4 cinfo() {
    long after;
    try {
      after = Fattr4.change(server.fhs.statAfter(dir));
    } catch (Nfs4Exception e) {
      after = before;
    }
    return new change_info4(false, before, after);
  }

  /** change_info4 of an operation that changed nothing. */
  change_info4 unchanged() {
    return new change_info4(false, before, before);
  }
}
