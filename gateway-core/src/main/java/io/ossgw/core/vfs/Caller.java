package io.ossgw.core.vfs;

/**
 * Who asks: the credentials of the process (FUSE {@code fuse_get_context}) or the RPC (NFS AUTH_SYS) behind a call.
 * New files and directories are owned by {@code uid}/{@code gid}.
 *
 * @param uid user id
 * @param gid primary group id
 * @param groups supplementary group ids (may be empty)
 */
public record Caller(int uid, int gid, int[] groups) {
  /** root, for internal calls and tests. */
  public static final Caller ROOT = new Caller(0, 0, new int[0]);

  public Caller {
    groups = groups == null ? new int[0] : groups.clone();
  }

  /** True if {@code g} is the primary or a supplementary group. */
  public boolean inGroup(int g) {
    if (g == gid) {
      return true;
    }
    for (int x : groups) {
      if (x == g) {
        return true;
      }
    }
    return false;
  }
}
