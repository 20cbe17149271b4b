package io.ossgw.nfs;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;

/**
 * Builds directories and files through the engine as given owners (uid = gid) with exact modes (set by root after
 * the create, past any umask), for the permission tests that then act on them over NFS as other uids.
 */
public record OwnedTree(VirtualFileSystem fs) {
  /** A caller whose gid is its uid and that has no other groups. */
  public static Caller user(int uid) {
    return new Caller(uid, uid, new int[0]);
  }

  public void dir(String path, int mode, int uid) {
    fs.mkdir(path, mode, user(uid));
    chmod(path, mode);
  }

  public void file(String path, int mode, int uid) {
    FileHandle h = fs.create(path, mode, OpenFlags.READ_WRITE, true, user(uid));
    fs.release(h);
    chmod(path, mode);
  }

  /** chmod by root. */
  public void chmod(String path, int mode) {
    fs.setattr(path, SetAttr.mode(mode), null, Caller.ROOT);
  }
}
