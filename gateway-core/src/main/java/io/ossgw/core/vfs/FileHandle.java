package io.ossgw.core.vfs;

/**
 * An open file, returned by {@link VirtualFileSystem#open} and {@link VirtualFileSystem#create}. Front ends keep it in
 * their own handle table (FUSE {@code fh}, NFS per-file state) and pass it back for read/write/flush/fsync/release.
 */
public interface FileHandle {
  /** The path the file was opened under (updated when the file is renamed while open). */
  String path();

  /** The flags it was opened with. */
  OpenFlags flags();
}
