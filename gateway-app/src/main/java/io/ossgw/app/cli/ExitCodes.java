package io.ossgw.app.cli;

/** Exit codes of every ossgw command. */
public final class ExitCodes {
  /** Success; for {@code mount -f}, {@code serve} and {@code demo} also a clean stop by SIGTERM/SIGINT. */
  public static final int OK = 0;
  /** The operation failed: bucket missing, access denied, endpoint unreachable, FUSE mount failed. */
  public static final int FAILED = 1;
  /** The command line or configuration is wrong: unknown option, bad value, no credentials, no such mount point. */
  public static final int USAGE = 2;
  /**
   * {@code umount}: the mount is gone, but the process that served it is still running after the wait and holds files
   * it has not finished uploading (the message names the process and the count).
   */
  public static final int STILL_UPLOADING = io.ossgw.app.mount.Unmounter.STILL_UPLOADING;
  /**
   * Any long-running command ({@code mount}, {@code serve}, {@code demo}, {@code emulator}): the Java heap was exhausted
   * and the process stopped itself after a {@code FATAL:} line ({@link io.ossgw.app.lifecycle.HeapGuard}).
   */
  public static final int HEAP_EXHAUSTED = 4;

  private ExitCodes() {}
}
