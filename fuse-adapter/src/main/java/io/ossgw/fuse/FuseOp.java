package io.ossgw.fuse;

/**
 * The FUSE operations the adapter implements, one counter each in {@link FuseStats}. Operations that are not listed
 * (xattrs, link, lock, bmap, ioctl, poll, fallocate, flock) are never registered with libfuse, so libfuse
 * answers ENOSYS itself and the kernel stops asking after the first refusal.
 */
public enum FuseOp {
  INIT,
  GETATTR,
  FGETATTR,
  ACCESS,
  READLINK,
  OPENDIR,
  READDIR,
  RELEASEDIR,
  MKDIR,
  RMDIR,
  UNLINK,
  RENAME,
  SYMLINK,
  MKNOD,
  CHMOD,
  CHOWN,
  TRUNCATE,
  FTRUNCATE,
  UTIMENS,
  CREATE,
  OPEN,
  READ,
  WRITE,
  FLUSH,
  FSYNC,
  RELEASE,
  STATFS
}
