package io.ossgw.core.vfs;

/**
 * POSIX error numbers the VFS reports, with their Linux values (asm-generic/errno-base.h, errno.h). Front ends map them:
 * FUSE returns {@code -value()}, NFS maps them to nfsstat3 (RFC 1813 §2.6).
 */
public enum Errno {
  EPERM(1),
  ENOENT(2),
  EIO(5),
  ENXIO(6),
  EBADF(9),
  EAGAIN(11),
  ENOMEM(12),
  EACCES(13),
  EBUSY(16),
  EEXIST(17),
  EXDEV(18),
  ENOTDIR(20),
  EISDIR(21),
  EINVAL(22),
  EFBIG(27),
  ENOSPC(28),
  EROFS(30),
  EMLINK(31),
  ERANGE(34),
  ENAMETOOLONG(36),
  ENOSYS(38),
  ENOTEMPTY(39),
  ELOOP(40),
  ENODATA(61),
  EOVERFLOW(75),
  ENOTSUP(95),
  ETIMEDOUT(110),
  ESTALE(116),
  EDQUOT(122);

  private final int value;

  Errno(int value) {
    this.value = value;
  }

  /** The positive Linux errno value. */
  public int value() {
    return value;
  }
}
