package io.ossgw.core.vfs;

import java.time.Instant;

/**
 * The attributes of one file, directory or symlink, as every front end presents them.
 *
 * @param ino a stable 64-bit file id (derived from the object key; the root is 1)
 * @param type regular, directory or symlink
 * @param mode permission bits only (07777); {@link #stMode()} adds the type bits
 * @param uid owner
 * @param gid group
 * @param size bytes (directories report 4096, like ossfs)
 * @param atime access time
 * @param mtime modification time
 * @param ctime status-change time
 * @param etag the ETag of the object these attributes came from (null for implicit directories and unsaved files)
 */
public record FileAttr(
    long ino,
    FileType type,
    int mode,
    int uid,
    int gid,
    long size,
    Instant atime,
    Instant mtime,
    Instant ctime,
    String etag) {

  /** Directory size shown by ossfs. */
  public static final long DIRECTORY_SIZE = 4096;

  /** {@code st_mode}: type bits plus permission bits. */
  public int stMode() {
    return type.bits() | (mode & 07777);
  }

  /** {@code st_nlink}: 2 for directories, 1 otherwise (ossfs reports the same). */
  public int nlink() {
    return type == FileType.DIRECTORY ? 2 : 1;
  }

  /** 512-byte blocks for {@code st_blocks}. */
  public long blocks() {
    return (size + 511) / 512;
  }

  public boolean isDirectory() {
    return type == FileType.DIRECTORY;
  }

  public boolean isRegular() {
    return type == FileType.REGULAR;
  }

  public boolean isSymlink() {
    return type == FileType.SYMLINK;
  }

  public FileAttr withSize(long newSize) {
    return new FileAttr(ino, type, mode, uid, gid, newSize, atime, mtime, ctime, etag);
  }
}
