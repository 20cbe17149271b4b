package io.ossgw.core.vfs;

import java.time.Instant;

/**
 * The attributes of one file, directory, symlink or special file, as every front end presents them.
 *
 * @param ino a 64-bit file id: the engine derives it from the object key (the root is 1), and its inode table
 *     ({@code io.ossgw.core.inode}) keeps it across renames and restarts
 * @param type regular, directory, symlink or a special file (fifo, device, socket)
 * @param mode permission bits only (07777); {@link #stMode()} adds the type bits
 * @param uid owner
 * @param gid group
 * @param size bytes (directories report 4096, like ossfs)
 * @param atime access time
 * @param mtime modification time
 * @param ctime status-change time
 * @param etag the ETag of the object these attributes came from (null for implicit directories and unsaved files)
 * @param rdev {@code st_rdev} of a character or block device (Linux {@code makedev} encoding), else 0
 * @param nlink {@code st_nlink}: 1 for every name (for a directory the conventional "unknown", see {@link
 *     #defaultLinks}), 0 for an open file whose name was unlinked
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
    String etag,
    long rdev,
    int nlink) {

  /** Attributes with no device number and the usual link count ({@link #defaultLinks}). */
  public FileAttr(long ino, FileType type, int mode, int uid, int gid, long size, Instant atime, Instant mtime,
      Instant ctime, String etag) {
    this(ino, type, mode, uid, gid, size, atime, mtime, ctime, etag, 0, defaultLinks(type));
  }

  /**
   * The link count of a name: 1, directories included. OSS has no hard links, and a directory's "2 + subdirectories"
   * would need a listing of it for every stat (and would change as listings come and go); 1 is the value Linux file
   * systems without directory link counts report (btrfs, many FUSE and network file systems), which {@code find} and
   * fts take as "unknown" and so never skip subdirectories. ossfs reports 2. FUSE and NFS show the same value.
   */
  public static int defaultLinks(FileType type) {
    return 1;
  }

  /** Directory size shown by ossfs. */
  public static final long DIRECTORY_SIZE = 4096;

  /** {@code st_mode}: type bits plus permission bits. */
  public int stMode() {
    return type.bits() | (mode & 07777);
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
    return new FileAttr(ino, type, mode, uid, gid, newSize, atime, mtime, ctime, etag, rdev, nlink);
  }

  /** These attributes with {@code st_nlink} 0: an open file whose name is gone (fstat after unlink). */
  public FileAttr unlinked() {
    return new FileAttr(ino, type, mode, uid, gid, size, atime, mtime, ctime, etag, rdev, 0);
  }

  /** These attributes with another inode number (the engine's persistent one, see {@code core.inode}). */
  public FileAttr withIno(long newIno) {
    return newIno == ino ? this : new FileAttr(newIno, type, mode, uid, gid, size, atime, mtime, ctime, etag, rdev, nlink);
  }

  /** These attributes with a device number (kept when a copy of the attributes is rebuilt). */
  public FileAttr withRdev(long newRdev) {
    return new FileAttr(ino, type, mode, uid, gid, size, atime, mtime, ctime, etag, newRdev, nlink);
  }
}
