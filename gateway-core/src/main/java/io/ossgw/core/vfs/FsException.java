package io.ossgw.core.vfs;

/**
 * A VFS operation failed with a POSIX error. The message is for logs; front ends only transmit {@link #errno()}.
 */
public class FsException extends RuntimeException {
  private final Errno errno;

  public FsException(Errno errno, String message) {
    super(message, null, false, false);
    this.errno = errno;
  }

  public FsException(Errno errno, String message, Throwable cause) {
    super(message, cause);
    this.errno = errno;
  }

  public Errno errno() {
    return errno;
  }

  @Override
  public String getMessage() {
    return errno + ": " + super.getMessage();
  }
}
