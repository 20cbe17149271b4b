package io.ossgw.core.vfs;

/** The file types the gateway presents, with their {@code S_IFMT} bits (sys/stat.h). */
public enum FileType {
  REGULAR(0100000),
  DIRECTORY(0040000),
  SYMLINK(0120000);

  /** {@code S_IFMT} mask. */
  public static final int S_IFMT = 0170000;

  private final int bits;

  FileType(int bits) {
    this.bits = bits;
  }

  /** The {@code S_IFxxx} bits of this type. */
  public int bits() {
    return bits;
  }

  /** The type encoded in a full {@code st_mode}, or null for types the gateway does not present (fifo, device). */
  public static FileType fromMode(int mode) {
    return switch (mode & S_IFMT) {
      case 0100000 -> REGULAR;
      case 0040000 -> DIRECTORY;
      case 0120000 -> SYMLINK;
      default -> null;
    };
  }
}
