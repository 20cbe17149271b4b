package io.ossgw.nfs.fs;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.util.function.Function;

/** Directory entries that may or may not exist, as CREATE, OPEN and RENAME ask about their target names. */
public final class Entries {
  private Entries() {}

  /**
   * The attributes of {@code path} in {@code fs}, or null when there is no such entry (ENOENT).
   *
   * @throws FsException any other failure of the getattr
   */
  public static FileAttr attrOrNull(VirtualFileSystem fs, String path) {
    return orNull(fs::getattr, path);
  }

  /**
   * Like {@link #attrOrNull}, for the name a CREATE is about to make ({@link VirtualFileSystem#getattrBeforeCreate}:
   * one ListObjectsV2 when nothing is there, instead of a HeadObject 404 and a ListObjectsV2).
   *
   * @throws FsException any other failure of the getattr
   */
  public static FileAttr attrBeforeCreateOrNull(VirtualFileSystem fs, String path) {
    return orNull(fs::getattrBeforeCreate, path);
  }

  private static FileAttr orNull(Function<String, FileAttr> getattr, String path) {
    try {
      return getattr.apply(path);
    } catch (FsException e) {
      if (e.errno() == Errno.ENOENT) {
        return null;
      }
      throw e;
    }
  }
}
