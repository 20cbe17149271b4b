package io.ossgw.nfs.fs;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;

/** Directory entries that may or may not exist, as CREATE, OPEN and RENAME ask about their target names. */
public final class Entries {
  private Entries() {}

  /**
   * The attributes of {@code path} in {@code fs}, or null when there is no such entry (ENOENT).
   *
   * @throws FsException any other failure of the getattr
   */
  public static FileAttr attrOrNull(VirtualFileSystem fs, String path) {
    try {
      return fs.getattr(path);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT) {
        return null;
      }
      throw e;
    }
  }
}
