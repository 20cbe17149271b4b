package io.ossgw.fuse;

/**
 * Mounting or unmounting failed. The message says why and, where a command fixes it, which one (for example
 * {@code fusermount -u -z /mnt/oss} for a dead mount, or {@code apt-get install libfuse2 fuse}).
 */
public class MountException extends RuntimeException {
  /** @param message what went wrong and how to fix it */
  public MountException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong and how to fix it
   * @param cause the underlying failure
   */
  public MountException(String message, Throwable cause) {
    super(message, cause);
  }
}
