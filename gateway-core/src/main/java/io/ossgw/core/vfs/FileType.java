package io.ossgw.core.vfs;

/**
 * The file types the gateway presents, with their {@code S_IFMT} bits (sys/stat.h). FIFO, CHARACTER_DEVICE,
 * BLOCK_DEVICE and SOCKET are special files (mknod(2)): zero-byte objects whose {@code x-oss-meta-mode} carries the
 * type, as ossfs stores them; they are only names, no data passes through them (SEMANTICS.md).
 */
public enum FileType {
  REGULAR(0100000),
  DIRECTORY(0040000),
  SYMLINK(0120000),
  FIFO(0010000),
  CHARACTER_DEVICE(0020000),
  BLOCK_DEVICE(0060000),
  SOCKET(0140000);

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

  /** True for the mknod(2) types: fifo, character and block device, socket. */
  public boolean special() {
    return this == FIFO || this == CHARACTER_DEVICE || this == BLOCK_DEVICE || this == SOCKET;
  }

  /** True for character and block devices, the types that carry an {@code st_rdev}. */
  public boolean device() {
    return this == CHARACTER_DEVICE || this == BLOCK_DEVICE;
  }

  /** The type encoded in a full {@code st_mode}, or null when its type bits are none of the seven POSIX types. */
  public static FileType fromMode(int mode) {
    return switch (mode & S_IFMT) {
      case 0100000 -> REGULAR;
      case 0040000 -> DIRECTORY;
      case 0120000 -> SYMLINK;
      case 0010000 -> FIFO;
      case 0020000 -> CHARACTER_DEVICE;
      case 0060000 -> BLOCK_DEVICE;
      case 0140000 -> SOCKET;
      default -> null;
    };
  }
}
