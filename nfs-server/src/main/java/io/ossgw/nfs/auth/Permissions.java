package io.ossgw.nfs.auth;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.nfs.xdr.Nfs3;

/**
 * POSIX permission checks from mode, uid and gid, as the NFS server applies them before it asks the VFS (which trusts
 * its callers). Root (uid 0 after squashing) may do anything except execute a file without any x bit. Like knfsd,
 * the owner may read and write a file regardless of its mode bits: a process may create a file 0444 and still write
 * it through the descriptor it opened, and NFS v3 has no open to remember that.
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
   * rename it.
   */
  public static boolean stickyAllows(FileAttr dir, FileAttr entry, Caller c) {
    return (dir.mode() & 01000) == 0 || c.uid() == 0 || c.uid() == dir.uid() || c.uid() == entry.uid();
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
