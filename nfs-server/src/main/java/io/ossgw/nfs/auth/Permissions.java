package io.ossgw.nfs.auth;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.xdr.Nfs3;

/**
 * POSIX permission checks from mode, uid and gid, as the NFS server applies them before it asks the VFS (which trusts
 * its callers), shared by NFSv3, NFSv4.1 and NLM. The Linux NFS client leaves most of them to the server (it skips
 * write checks on directories and, over v4, the write check of an open), so they follow Linux's own: {@link
 * #allowed} is generic_permission (the owner class applies to the owner even when group or other would allow more;
 * root, uid 0 after squashing, may do anything except execute a file without any x bit), {@link #stickyAllows} and
 * {@link #renameRefusal} are may_delete and vfs_rename. Only READ and WRITE (and a SETATTR of the size) have knfsd's
 * owner override ({@link #dataAccess}): a process may create a file 0444 and still write it through the descriptor
 * it opened, and NFSv3 has no open to remember that.
 */
public final class Permissions {
  public static final int R = 4;
  public static final int W = 2;
  public static final int X = 1;

  private Permissions() {}

  /** True if {@code c} has every bit of {@code want} (R|W|X) on {@code a} by its mode bits. */
  public static boolean allowed(FileAttr a, Caller c, int want) {
    if (c.uid() == 0) {
      return (want & X) == 0 || a.isDirectory() || (a.mode() & 0111) != 0;
    }
    int bits;
    if (c.uid() == a.uid()) {
      bits = (a.mode() >> 6) & 7;
    } else if (c.inGroup(a.gid())) {
      bits = (a.mode() >> 3) & 7;
    } else {
      bits = a.mode() & 7;
    }
    return (bits & want) == want;
  }

  /** Read or write file data: the mode bits, or ownership (knfsd's owner override). */
  public static boolean dataAccess(FileAttr a, Caller c, int want) {
    return c.uid() == a.uid() || allowed(a, c, want);
  }

  /** May {@code c} create, remove or rename entries of directory {@code dir} (w and x)? */
  public static boolean canModifyDir(FileAttr dir, Caller c) {
    return allowed(dir, c, W | X);
  }

  /**
   * Sticky directories (mode 01000): only the owner of the entry, the owner of the directory, or root may remove or
   * rename it, or replace it by a rename (Linux check_sticky). A refusal is EPERM (NFS3ERR_PERM, NFS4ERR_PERM), as
   * Linux's may_delete answers.
   */
  public static boolean stickyAllows(FileAttr dir, FileAttr entry, Caller c) {
    return (dir.mode() & 01000) == 0 || c.uid() == 0 || c.uid() == dir.uid() || c.uid() == entry.uid();
  }

  /**
   * The checks of a rename past write and search permission on both directories and the sticky bit on the source
   * (Linux vfs_rename, in its order): an existing target in a sticky directory must be one the caller may remove
   * (EPERM), and a directory moved to another parent needs write permission on itself, since its ".." changes
   * (EACCES; pjdfstest rename/09.t). Within one directory a directory needs none.
   *
   * @param toDir the target directory
   * @param target the entry the rename replaces, or null when the new name is free
   * @param source the entry renamed
   * @param sameParent whether the source stays in its directory
   * @return null when allowed, else {@link Errno#EPERM} or {@link Errno#EACCES}
   */
  public static Errno renameRefusal(FileAttr toDir, FileAttr target, FileAttr source, boolean sameParent, Caller c) {
    if (target != null && !stickyAllows(toDir, target, c)) {
      return Errno.EPERM;
    }
    if (source.isDirectory() && !sameParent && !allowed(source, c, W)) {
      return Errno.EACCES;
    }
    return null;
  }

  /**
   * NLM TEST and LOCK: the caller must be able to open the file at all, with read or write permission, or own it.
   * knfsd asks for read permission or ownership (NFSD_MAY_LOCK); write permission is accepted too, since fcntl(2)
   * takes a write lock through a descriptor open for writing only. UNLOCK and CANCEL need nothing, so a lock can
   * always be let go after a chmod.
   */
  public static boolean mayLock(FileAttr a, Caller c) {
    return c.uid() == a.uid() || allowed(a, c, R) || allowed(a, c, W);
  }

  /**
   * RFC 1813 §3.3.4 ACCESS: the subset of {@code asked} (ACCESS3_* bits) granted. DELETE applies to directories only
   * (removing entries of it); MODIFY, EXTEND and DELETE are never granted on a read-only export.
   */
  public static int access(FileAttr a, Caller c, int asked, boolean readOnly) {
    int granted = 0;
    if ((asked & Nfs3.ACCESS3_READ) != 0 && allowed(a, c, R)) {
      granted |= Nfs3.ACCESS3_READ;
    }
    if (a.isDirectory()) {
      if ((asked & Nfs3.ACCESS3_LOOKUP) != 0 && allowed(a, c, X)) {
        granted |= Nfs3.ACCESS3_LOOKUP;
      }
      if (!readOnly && (asked & Nfs3.ACCESS3_DELETE) != 0 && allowed(a, c, W | X)) {
        granted |= Nfs3.ACCESS3_DELETE;
      }
      if (!readOnly && allowed(a, c, W | X)) {
        granted |= asked & (Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND);
      }
    } else {
      if ((asked & Nfs3.ACCESS3_EXECUTE) != 0 && allowed(a, c, X)) {
        granted |= Nfs3.ACCESS3_EXECUTE;
      }
      if (!readOnly && allowed(a, c, W)) {
        granted |= asked & (Nfs3.ACCESS3_MODIFY | Nfs3.ACCESS3_EXTEND);
      }
    }
    return granted;
  }

  /**
   * The mode a write by {@code caller} leaves: a write by anyone but root drops setuid, and setgid when group execute
   * is set, as Linux's file_remove_privs does for a local file (knfsd writes with the client's credentials, so a Linux
   * NFS server behaves the same); -1 when nothing changes. Over FUSE the client's kernel does this itself.
   */
  public static int killPrivileges(FileAttr cur, Caller caller) {
    int mode = cur.mode();
    int kept = mode & ~04000;
    if ((kept & 02010) == 02010) {
      kept &= ~02000;
    }
    return caller.uid() == 0 || kept == mode ? -1 : kept;
  }
}
