package io.ossgw.nfs.v3;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.xdr.nfsstat3;

/** POSIX errno to nfsstat3, RFC 1813 §2.6. */
public final class Status {
  private Status() {}

  /**
   * The nfsstat3 of an errno. ENOSYS and ENOTSUP (operations OSS cannot do) become NFS3ERR_NOTSUPP; errnos with no
   * NFSv3 counterpart become NFS3ERR_IO when they report a failed I/O (EAGAIN, ETIMEDOUT, ENOMEM, ...) and
   * NFS3ERR_SERVERFAULT otherwise.
   */
  public static int of(Errno e) {
    return switch (e) {
      case EPERM -> nfsstat3.NFS3ERR_PERM;
      case ENOENT -> nfsstat3.NFS3ERR_NOENT;
      case ENXIO -> nfsstat3.NFS3ERR_NXIO;
      case EIO, EAGAIN, ETIMEDOUT, ENOMEM, EBUSY, ENODATA -> nfsstat3.NFS3ERR_IO;
      case EACCES -> nfsstat3.NFS3ERR_ACCES;
      case EEXIST -> nfsstat3.NFS3ERR_EXIST;
      case EXDEV -> nfsstat3.NFS3ERR_XDEV;
      case ENOTDIR -> nfsstat3.NFS3ERR_NOTDIR;
      case EISDIR -> nfsstat3.NFS3ERR_ISDIR;
      case EINVAL, ELOOP, ERANGE -> nfsstat3.NFS3ERR_INVAL;
      case EFBIG, EOVERFLOW -> nfsstat3.NFS3ERR_FBIG;
      case ENOSPC -> nfsstat3.NFS3ERR_NOSPC;
      case EROFS -> nfsstat3.NFS3ERR_ROFS;
      case EMLINK -> nfsstat3.NFS3ERR_MLINK;
      case ENAMETOOLONG -> nfsstat3.NFS3ERR_NAMETOOLONG;
      case ENOTEMPTY -> nfsstat3.NFS3ERR_NOTEMPTY;
      case EDQUOT -> nfsstat3.NFS3ERR_DQUOT;
      case ESTALE -> nfsstat3.NFS3ERR_STALE;
      case ENOSYS, ENOTSUP -> nfsstat3.NFS3ERR_NOTSUPP;
      default -> nfsstat3.NFS3ERR_SERVERFAULT; // EBADF and errnos added later: a server-side fault
    };
  }

  static NfsError error(FsException e) {
    return new NfsError(of(e.errno()), e.getMessage());
  }
}
