package io.ossgw.core.vfs;

/**
 * How a file is opened, decoded from POSIX {@code open(2)} flags (Linux values).
 *
 * @param read O_RDONLY or O_RDWR
 * @param write O_WRONLY or O_RDWR
 * @param truncate O_TRUNC
 * @param append O_APPEND
 */
public record OpenFlags(boolean read, boolean write, boolean truncate, boolean append) {
  public static final int O_ACCMODE = 03;
  public static final int O_RDONLY = 00;
  public static final int O_WRONLY = 01;
  public static final int O_RDWR = 02;
  public static final int O_TRUNC = 01000;
  public static final int O_APPEND = 02000;

  public static final OpenFlags READ_ONLY = new OpenFlags(true, false, false, false);
  public static final OpenFlags READ_WRITE = new OpenFlags(true, true, false, false);

  /** Decodes Linux {@code open(2)} flags. */
  public static OpenFlags fromPosix(int flags) {
    int acc = flags & O_ACCMODE;
    return new OpenFlags(
        acc == O_RDONLY || acc == O_RDWR,
        acc == O_WRONLY || acc == O_RDWR,
        (flags & O_TRUNC) != 0,
        (flags & O_APPEND) != 0);
  }
}
