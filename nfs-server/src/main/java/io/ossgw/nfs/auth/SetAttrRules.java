package io.ossgw.nfs.auth;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;

/**
 * Who may change which attributes: the POSIX rules of chmod(2), chown(2), truncate(2) and utimensat(2) as Linux knfsd
 * applies them to a SETATTR (and to the attributes of a CREATE), shared by NFSv3 (RFC 1813 §3.3.2) and NFSv4.1 (RFC
 * 8881 §18.30) so both versions allow and refuse alike. The VFS trusts its callers; these checks run before it.
 *
 * <p>Refusals are {@link Refused} with {@link Refused#perm()} true for EPERM (ownership: NFS3ERR_PERM, NFS4ERR_PERM)
 * and false for EACCES (mode bits: NFS3ERR_ACCES, NFS4ERR_ACCESS); each version maps them to its own status.
 */
public final class SetAttrRules {
  private SetAttrRules() {}

  /** A SETATTR the caller may not make: EPERM when {@link #perm()}, else EACCES. */
  public static final class Refused extends RuntimeException {
    private final boolean perm;

    Refused(boolean perm, String message) {
      super(message, null, false, false);
      this.perm = perm;
    }

    /** True for EPERM (the caller is not the owner or root), false for EACCES (the mode bits refuse). */
    public boolean perm() {
      return perm;
    }
  }

  /**
   * Checks a change of mode, owner, group or size of the object whose current attributes are {@code cur}, and gives
   * the mode to store: the requested mode masked to 07777, without setgid when a non-root caller is not in the
   * file's (new) group, and with setuid (and setgid with group execute) cleared when a non-directory changes owner or
   * group (Linux nfsd_sanitize_attrs; FUSE's kernel does the same).
   *
   * @param mode the requested mode, or null for none
   * @param uid the requested owner, or null
   * @param gid the requested group, or null
   * @param truncate whether the size changes (needs write permission, or ownership)
   * @return the mode to store, or null to leave it unchanged
   * @throws Refused chmod by a non-owner, chown to another uid by a non-root caller, chgrp to a group the owner is
   *     not in, any owner or group by a caller that is neither root nor the owner, even to the current ids (Linux
   *     setattr_prepare; pjdfstest chown/07.t) (EPERM); a size change without write permission (EACCES)
   */
  public static Integer checkOwnership(FileAttr cur, Integer mode, Integer uid, Integer gid, boolean truncate,
      Caller c) {
    boolean root = c.uid() == 0;
    boolean owner = c.uid() == cur.uid();
    if (mode != null) {
      if (!root && !owner) {
        throw new Refused(true, "chmod by a non-owner");
      }
      mode &= 07777;
      if (!root && !c.inGroup(gid != null ? gid : cur.gid())) {
        mode &= ~02000;
      }
    }
    // Linux chown_ok/chgrp_ok: a non-owner may not even "change" an id to the value it has (chown(1) of a file to
    // its own ids by another user is EPERM), the owner may keep its uid and gid and choose a group it is in
    if (uid != null && !root && !(owner && uid == cur.uid())) {
      throw new Refused(true, owner ? "chown by a non-root caller" : "chown by a non-owner");
    }
    if (gid != null && !root && !(owner && (gid == cur.gid() || c.inGroup(gid)))) {
      throw new Refused(true, owner ? "chgrp to a group the caller is not in" : "chgrp by a non-owner");
    }
    if (truncate && !Permissions.dataAccess(cur, c, Permissions.W)) {
      throw new Refused(false, "truncate without write permission");
    }
    if ((uid != null || gid != null) && !cur.isDirectory()) {
      int base = mode != null ? mode : cur.mode();
      int kept = base & ~04000;
      if ((kept & 02010) == 02010) {
        kept &= ~02000;
      }
      if (kept != base || mode != null) {
        mode = kept;
      }
    }
    return mode;
  }

  /**
   * Checks a change of atime or mtime: to the server's time ({@code utimes(NULL)}) needs ownership or write permission,
   * to a time the client gives needs ownership (or root).
   *
   * @param toServerTime SET_TO_SERVER_TIME (v3) / SET_TO_SERVER_TIME4 (v4)
   * @param toClientTime SET_TO_CLIENT_TIME (v3) / SET_TO_CLIENT_TIME4 (v4)
   * @throws Refused EPERM for the latter by a non-owner (checked first), EACCES for the former without write
   *     permission
   */
  public static void checkTime(boolean toServerTime, boolean toClientTime, FileAttr cur, Caller c) {
    boolean owner = c.uid() == 0 || c.uid() == cur.uid();
    if (toClientTime && !owner) {  // first, as Linux's setattr_prepare: a time given by a non-owner is EPERM
      throw new Refused(true, "utimes by a non-owner");
    }
    if (toServerTime && !owner && !Permissions.allowed(cur, c, Permissions.W)) {
      throw new Refused(false, "utimes(NULL) without write permission");
    }
  }
}
