package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;

/**
 * POSIX errno to nfsstat4 (RFC 8881 §15), as {@link io.ossgw.nfs.v3.Status} does for nfsstat3 so that both versions
 * report a failure of the engine alike.
 */
public final class V4Status {
  private V4Status() {}

  /**
   * The nfsstat4 of an errno. Differences from v3: ELOOP is NFS4ERR_SYMLINK (a symbolic link where a directory was
   * needed, as Linux knfsd's nfserrno answers), EACCES is NFS4ERR_ACCESS. ENOSYS and ENOTSUP (what OSS cannot do)
   * are NFS4ERR_NOTSUPP; errnos of a failed I/O (EAGAIN, ETIMEDOUT, ENOMEM, EBUSY, ENODATA) NFS4ERR_IO, others
   * NFS4ERR_SERVERFAULT.
   */
  public static int of(Errno e) {
    return switch (e) {
      case EPERM -> Nfs4.NFS4ERR_PERM;
      case ENOENT -> Nfs4.NFS4ERR_NOENT;
      case ENXIO -> Nfs4.NFS4ERR_NXIO;
      case EIO, EAGAIN, ETIMEDOUT, ENOMEM, EBUSY, ENODATA -> Nfs4.NFS4ERR_IO;
      case EACCES -> Nfs4.NFS4ERR_ACCESS;
      case EEXIST -> Nfs4.NFS4ERR_EXIST;
      case EXDEV -> Nfs4.NFS4ERR_XDEV;
      case ENOTDIR -> Nfs4.NFS4ERR_NOTDIR;
      case EISDIR -> Nfs4.NFS4ERR_ISDIR;
      case EINVAL, ERANGE -> Nfs4.NFS4ERR_INVAL;
      case ELOOP -> Nfs4.NFS4ERR_SYMLINK;
      case EFBIG, EOVERFLOW -> Nfs4.NFS4ERR_FBIG;
      case ENOSPC -> Nfs4.NFS4ERR_NOSPC;
      case EROFS -> Nfs4.NFS4ERR_ROFS;
      case EMLINK -> Nfs4.NFS4ERR_MLINK;
      case ENAMETOOLONG -> Nfs4.NFS4ERR_NAMETOOLONG;
      case ENOTEMPTY -> Nfs4.NFS4ERR_NOTEMPTY;
      case EDQUOT -> Nfs4.NFS4ERR_DQUOT;
      case ESTALE -> Nfs4.NFS4ERR_STALE;
      case ENOSYS, ENOTSUP -> Nfs4.NFS4ERR_NOTSUPP;
      default -> Nfs4.NFS4ERR_SERVERFAULT; // EBADF and errnos added later: a server-side fault
    };
  }

  /** The {@link Nfs4Exception} an operation throws for a failed engine call. */
  public static Nfs4Exception error(FsException e) {
    return new Nfs4Exception(of(e.errno()), e.getMessage());
  }
}
