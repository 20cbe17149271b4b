package io.ossgw.nfs.v4;

import com.github.benmanes.caffeine.cache.Cache;
import io.ossgw.core.cache.Caches;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.fs.Entries;
import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.Opens;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.OPEN4args;
import io.ossgw.nfs.v4.xdr.OPEN4resok;
import io.ossgw.nfs.v4.xdr.bitmap4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;

/**
 * OPEN (RFC 8881 §18.16): finds or creates a regular file, takes a share reservation for the open owner ({@link
 * Opens}: one stateid per open owner and file, upgraded by a second OPEN), keeps the file's shared handle open until
 * CLOSE, and makes the file the current filehandle and the stateid the current stateid.
 *
 * <ul>
 *   <li>Claims: CLAIM_NULL (a name in the current directory), CLAIM_FH (the current filehandle), both refused with
 *       NFS4ERR_GRACE during the grace period; CLAIM_PREVIOUS (a reclaim of the current filehandle after a restart:
 *       NFS4ERR_NO_GRACE outside the grace period or after the client's RECLAIM_COMPLETE). No delegation is ever
 *       granted, so CLAIM_DELEGATE_CUR and CLAIM_DELEG_CUR_FH name an unknown stateid (NFS4ERR_BAD_STATEID) and
 *       CLAIM_DELEGATE_PREV and CLAIM_DELEG_PREV_FH are NFS4ERR_NOTSUPP.
 *   <li>Create (CLAIM_NULL only; NFS4ERR_INVAL with another claim): UNCHECKED4 opens an existing file, applying only a
 *       size from createattrs (O_TRUNC); GUARDED4 of an existing name is NFS4ERR_EXIST; EXCLUSIVE4_1 (verifier and
 *       createattrs within suppattr_exclcreat, else NFS4ERR_INVAL) and EXCLUSIVE4 (verifier only; allowed since this
 *       server's sessions are not persistent) succeed again for a retry with the same verifier and are NFS4ERR_EXIST
 *       for another; the verifier is kept in memory for 10 minutes, as v3 EXCLUSIVE CREATE keeps it. A new file
 *       gets the mode of createattrs (0644 without one) with its create, then owner, group and times.
 *   <li>Access: share_access READ needs read or execute permission, WRITE write permission, by the mode bits (the
 *       owner's class for the owner, as open(2)); a file this OPEN created is not checked, and the owner's reclaim
 *       (CLAIM_PREVIOUS) neither. WRITE on a read-only export is NFS4ERR_ROFS.
 *   <li>Result: change_info4 of the directory (not atomic), rflags OPEN4_RESULT_LOCKTYPE_POSIX, the attributes set,
 *       OPEN_DELEGATE_NONE, or OPEN_DELEGATE_NONE_EXT when the client stated a wish (WND4_NOT_WANTED for
 *       WANT_NO_DELEG, WND4_CANCELLED for WANT_CANCEL, WND4_RESOURCE for a wanted delegation).
 * </ul>
 *
 * <p>Other errors: share access outside READ/WRITE/BOTH or deny over DENY_BOTH NFS4ERR_INVAL; a directory NFS4ERR_ISDIR,
 * a symbolic link NFS4ERR_SYMLINK, another non-file NFS4ERR_WRONG_TYPE; the current filehandle not a directory for
 * CLAIM_NULL NFS4ERR_NOTDIR; a missing name NFS4ERR_NOENT; a conflicting share NFS4ERR_SHARE_DENIED; names as LOOKUP
 * ({@link Component4}).
 */
final class OpenOp implements Operation<OPEN4args> {
  private static final int WANT_NO_PREFERENCE = 0x0000;
  private static final int WANT_NO_DELEG = 0x0400;
  private static final int WANT_CANCEL = 0x0500;

  private static final System.Logger LOG = System.getLogger(OpenOp.class.getName());

  /** EXCLUSIVE4/EXCLUSIVE4_1 verifiers by "export id:path": a retried exclusive create succeeds again. */
  private final Cache<String, Long> exclusive = Caches.newBuilder().maximumSize(10_000)
      .expireAfterWrite(Duration.ofMinutes(10)).build();

  /** The file an OPEN reached, and what it did to get there. */
  private record Found(V4Target target, FileAttr attr, boolean created, long before, long after, bitmap4 attrset,
      Long truncate) {
    static Found existing(V4Target t, FileAttr a) {
      return new Found(t, a, false, 0, 0, bitmap4.EMPTY, null);
    }
  }

  @Override
  public int op() {
    return Nfs4.OP_OPEN;
  }

  @Override
  public OPEN4args decode(XdrReader r) {
    return OPEN4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, OPEN4args a) {
    int access = a.shareAccess() & 0xff;
    int want = a.shareAccess() & Nfs4.OPEN4_SHARE_ACCESS_WANT_DELEG_MASK;
    if (access == 0 || (access & ~Nfs4.OPEN4_SHARE_ACCESS_BOTH) != 0
        || (a.shareDeny() & ~Nfs4.OPEN4_SHARE_DENY_BOTH) != 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "share access " + a.shareAccess() + " deny " + a.shareDeny());
    }
    boolean create = a.opentype() == Nfs4.OPEN4_CREATE;
    ClientRecord client = ctx.session.client();
    Found f = switch (a.claim().claim()) {
      case Nfs4.CLAIM_NULL -> {
        ctx.server.grace.checkNonReclaim();
        yield byName(ctx, a, create);
      }
      case Nfs4.CLAIM_FH -> {
        noCreate(create);
        ctx.server.grace.checkNonReclaim();
        yield current(ctx);
      }
      case Nfs4.CLAIM_PREVIOUS -> {
        noCreate(create);
        ctx.server.grace.checkReclaim(client); // NO_GRACE, or RECLAIM_BAD for a client unknown before the restart
        yield reclaimed(ctx);
      }
      case Nfs4.CLAIM_DELEGATE_CUR, Nfs4.CLAIM_DELEG_CUR_FH ->
          throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, "no delegation was granted");
      default -> throw new Nfs4Exception(Nfs4.NFS4ERR_NOTSUPP, "delegation reclaims: no delegation is granted");
    };
    V4Target t = f.target();
    OpenStates.regular(f.attr(), t.path());
    Caller caller = ctx.caller();
    if (!f.created()) {
      checkAccess(t, f.attr(), caller, access, f.truncate() != null, a.claim().claim() == Nfs4.CLAIM_PREVIOUS);
    }
    Opens.Opened o;
    try {
      o = ctx.server.opens.open(client, a.owner().owner(), t.export(), t.fileid(), access, a.shareDeny(),
          () -> ctx.server.open.pin(t.export(), t.path(), caller));
      if (f.truncate() != null) {
        long size = f.truncate();
        ctx.server.open.with(t.export(), t.path(), caller,
            h -> t.fs().setattr(t.path(), SetAttr.size(size), h, caller));
      }
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    ctx.current = t;
    ctx.currentStateid(o.stateid());
    int why = switch (want) {
      case WANT_NO_PREFERENCE -> -1;
      case WANT_NO_DELEG -> OPEN4resok.WND4_NOT_WANTED;
      case WANT_CANCEL -> OPEN4resok.WND4_CANCELLED;
      default -> OPEN4resok.WND4_RESOURCE;
    };
    return new OPEN4resok(o.stateid(), false, f.before(), f.after(), Nfs4.OPEN4_RESULT_LOCKTYPE_POSIX, f.attrset(),
        why < 0 ? Nfs4.OPEN_DELEGATE_NONE : Nfs4.OPEN_DELEGATE_NONE_EXT, Math.max(why, 0));
  }

  private static void noCreate(boolean create) {
    if (create) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "OPEN4_CREATE needs CLAIM_NULL");
    }
  }

  /** CLAIM_FH and CLAIM_PREVIOUS: the current filehandle is the file. */
  private static Found current(CompoundContext ctx) {
    V4Target t = ctx.current();
    return Found.existing(t, ctx.fhs().stat(t));
  }

  /**
   * CLAIM_PREVIOUS: the current filehandle's file. One the former server created and never uploaded (it was killed,
   * or lost its cluster lease, before the file's first COMMIT or close put it in OSS) is created again, empty and the
   * reclaiming owner's (mode 0644), so that the WRITEs the client resends after the write verifier changed and its
   * COMMIT land (RFC 8881 §8.4.2.1, §18.32.3: the client replays what the server had not made stable); the bytes were
   * lost only if the client no longer holds them, which it does until a COMMIT succeeds. A file whose directory is
   * gone stays NFS4ERR_STALE.
   */
  private static Found reclaimed(CompoundContext ctx) {
    V4Target t = ctx.current();
    if (t.pseudo() || t.export().readOnly()) {
      return current(ctx);
    }
    FileAttr a = attrOrNull(t.fs(), t.path(), false);
    if (a != null) {
      return Found.existing(t, a);
    }
    Caller caller = ctx.caller();
    try {
      FileHandle h = t.fs().create(t.path(), 0644, OpenFlags.READ_WRITE, true, caller);
      ctx.server.open.adopt(t.export(), t.path(), h);
      FileAttr made = t.fs().getattr(t.path());
      LOG.log(System.Logger.Level.INFO, "OPEN CLAIM_PREVIOUS of " + t.path() + ", which the former server never "
          + "uploaded: created again, empty, for the client's resent WRITEs");
      return new Found(t, made, true, 0, 0, bitmap4.EMPTY, null);
    } catch (FsException e) {
      if (e.errno() == io.ossgw.core.vfs.Errno.ENOENT || e.errno() == io.ossgw.core.vfs.Errno.ENOTDIR) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_STALE, t.path() + " is gone, and so is its directory");
      }
      throw V4Status.error(e);
    }
  }

  /**
   * Share access READ: read or execute permission (a client opens a file to run it with READ); WRITE: write. By the
   * mode bits as open(2) checks them, the owner's class for the owner (pjdfstest open/06.t): the Linux v4.1 client
   * asks ACCESS for reading only and leaves writing to OPEN, as knfsd's do_open_permission checks it. A reclaim
   * (CLAIM_PREVIOUS) re-establishes an open the client made before a restart, so the owner keeps it after a chmod
   * (knfsd's owner override, as READ and WRITE have it).
   */
  private static void checkAccess(V4Target t, FileAttr a, Caller caller, int access, boolean truncate,
      boolean reclaim) {
    boolean write = (access & Nfs4.OPEN4_SHARE_ACCESS_WRITE) != 0 || truncate;
    if (write && t.export().readOnly()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, t.export().path());
    }
    if (reclaim && caller.uid() == a.uid()) {
      return;
    }
    if ((access & Nfs4.OPEN4_SHARE_ACCESS_READ) != 0 && !Permissions.allowed(a, caller, Permissions.R)
        && !Permissions.allowed(a, caller, Permissions.X)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "read permission on " + t.path());
    }
    if (write && !Permissions.allowed(a, caller, Permissions.W)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "write permission on " + t.path());
    }
  }

  /** CLAIM_NULL: the name in the current directory, created if asked. */
  private Found byName(CompoundContext ctx, OPEN4args a, boolean create) {
    V4Target dir = ctx.current();
    String name = Component4.check(a.claim().file());
    if (dir.pseudo()) {
      if (create) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, "the pseudo file system is read-only");
      }
      ctx.fhs().lookup(dir, name, ctx.peer); // NOENT if absent; else an export or a pseudo directory
      throw new Nfs4Exception(Nfs4.NFS4ERR_ISDIR, name + " is a directory");
    }
    FileAttr da = ctx.fhs().stat(dir);
    if (!da.isDirectory()) {
      throw new Nfs4Exception(da.isSymlink() ? Nfs4.NFS4ERR_SYMLINK : Nfs4.NFS4ERR_NOTDIR, dir.path());
    }
    Caller caller = ctx.caller();
    if (!Permissions.allowed(da, caller, Permissions.X)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "search permission on " + dir.path());
    }
    String path = VPaths.child(dir.path(), name);
    VirtualFileSystem fs = dir.fs();
    // an OPEN that may create expects the name to be free: one ListObjectsV2 finds that out (a HEAD 404 and a LIST
    // otherwise); the Linux client sends it without a LOOKUP first for a name not in its cache
    FileAttr existing = attrOrNull(fs, path, create);
    long before = Fattr4.change(da);
    if (!create) {
      if (existing == null) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, path);
      }
      return new Found(ctx.fhs().target(dir.export(), path, existing), existing, false, before, before,
          bitmap4.EMPTY, null);
    }
    if (dir.export().readOnly()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ROFS, dir.export().path());
    }
    int mode = a.createmode();
    boolean excl = mode == Nfs4.EXCLUSIVE4 || mode == Nfs4.EXCLUSIVE4_1;
    Sattr4 sa = a.createattrs() == null ? Sattr4.NONE : Fattr4.decodeSet(a.createattrs());
    if (mode == Nfs4.EXCLUSIVE4_1 && !sa.attrsset().minus(Fattr4.EXCLCREAT).isEmpty()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "attributes outside suppattr_exclcreat with EXCLUSIVE4_1");
    }
    String key = dir.export().id() + ":" + path;
    long verf = excl ? ByteBuffer.wrap(a.verifier()).getLong() : 0;
    if (existing != null) {
      V4Target t = ctx.fhs().target(dir.export(), path, existing);
      if (mode == Nfs4.UNCHECKED4) {
        Long size = sa.size();
        return new Found(t, existing, false, before, before,
            size != null ? bitmap4.of(Nfs4.FATTR4_SIZE) : bitmap4.EMPTY, size);
      }
      Long stored = excl ? exclusive.getIfPresent(key) : null;
      if (stored == null || stored != verf) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_EXIST, path);
      }
      // a retry of our own exclusive create: the same success, no permission check (the create was the check)
      return new Found(t, existing, true, before, before, sa.attrsset(), null);
    }
    if (!Permissions.canModifyDir(da, caller)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ACCESS, "write permission on " + dir.path());
    }
    FileAttr made;
    try {
      FileHandle h = fs.create(path, sa.mode() != null ? sa.mode() : 0644, OpenFlags.READ_WRITE,
          mode != Nfs4.UNCHECKED4, caller);
      ctx.server.open.adopt(dir.export(), path, h);
      if (excl) {
        exclusive.put(key, verf);
      }
      made = fs.getattr(path);
      // the mode went with the create; owner, group, times and a non-zero size follow on the new file
      SetAttr rest = rest(sa, made, caller);
      if (rest.changesMeta() || rest.size() != null) {
        made = fs.setattr(path, rest, h, caller);
      }
      if (dir.export().durableCreate()) {
        fs.fsync(h, false); // the empty object, with its mode and owner, in OSS before the reply
      }
    } catch (FsException e) {
      throw V4Status.error(e);
    }
    long after = Fattr4.change(ctx.fhs().statAfter(dir));
    return new Found(ctx.fhs().target(dir.export(), path, made), made, true, before, after, sa.attrsset(), null);
  }

  /**
   * The createattrs left after the create: owner and group (only root gives a file away; the owner may choose a group
   * it is in), a size above zero and the times.
   *
   * @throws Nfs4Exception NFS4ERR_PERM for a chown the caller may not do
   */
  private static SetAttr rest(Sattr4 sa, FileAttr made, Caller c) {
    boolean root = c.uid() == 0;
    if (sa.uid() != null && sa.uid() != made.uid() && !root) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "chown by a non-root caller");
    }
    if (sa.gid() != null && sa.gid() != made.gid() && !root && !c.inGroup(sa.gid())) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "chgrp to a group the caller is not in");
    }
    SetAttr all = sa.toSetAttr(Instant.now());
    Long size = all.size() != null && all.size() > 0 ? all.size() : null;
    return new SetAttr(null, all.uid(), all.gid(), size, all.atime(), all.mtime());
  }

  /**
   * The attributes of {@code path}, null when nothing is there; {@code beforeCreate} asks the way that is cheapest for
   * a name expected to be free ({@link Entries#attrBeforeCreateOrNull}).
   */
  private static FileAttr attrOrNull(VirtualFileSystem fs, String path, boolean beforeCreate) {
    try {
      return beforeCreate ? Entries.attrBeforeCreateOrNull(fs, path) : Entries.attrOrNull(fs, path);
    } catch (FsException e) {
      throw V4Status.error(e);
    }
  }
}
