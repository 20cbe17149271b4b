package io.ossgw.core.engine;

import io.ossgw.core.store.StoreException;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;

/** Maps object-store failures to POSIX errors. Only NoSuchKey of the object being looked up becomes ENOENT. */
final class Errors {
  private Errors() {}

  static FsException toFs(StoreException e, String path) {
    Errno errno = switch (e.kind()) {
      case NOT_FOUND -> Errno.ENOENT;
      case ACCESS_DENIED -> Errno.EACCES;
      default -> Errno.EIO;
    };
    return new FsException(errno, path + ": " + e.getMessage(), e);
  }

  /** Like {@link #toFs} but a NoSuchKey (of some other object) is EIO too. */
  static FsException toIo(StoreException e, String path) {
    Errno errno = e.kind() == io.ossgw.core.store.StoreErrorKind.ACCESS_DENIED ? Errno.EACCES : Errno.EIO;
    return new FsException(errno, path + ": " + e.getMessage(), e);
  }
}
