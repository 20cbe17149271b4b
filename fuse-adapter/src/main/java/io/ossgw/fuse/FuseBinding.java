package io.ossgw.fuse;

import java.nio.file.Path;
import java.util.List;

/**
 * The seam between the binding-neutral adapter and one native FUSE binding: jfuse over libfuse 3 (the default) or
 * jnr-fuse over libfuse 2, chosen by {@link FuseBindings}. A binding converts native requests into calls on a {@link
 * FuseFilesystem} and copies results back; it owns no gateway logic.
 */
public interface FuseBinding {
  /** A short name for logs and measurements, e.g. {@code "jnr-fuse 0.5.8 (libfuse2)"}. */
  String name();

  /**
   * Loads the native library if not done yet.
   *
   * @throws MountException if it is missing, with the package to install
   */
  void load();

  /**
   * The command-line arguments (without program name, {@code -f} and mount point) that express {@code options} for
   * this binding's libfuse, e.g. {@code ["-s", "-o", "big_writes,max_write=131072,..."]}.
   */
  List<String> arguments(FuseOptions options);

  /**
   * Mounts {@code fs} at {@code mountpoint} and serves requests until the filesystem is unmounted. Blocks the calling
   * thread, which serves every request itself in single-threaded mode. The binding must call {@link
   * FuseFilesystem#mounting} right before it asks libfuse to mount (the mount timeout counts from there) and {@link
   * FuseFilesystem#init} when the kernel's INIT has been answered.
   *
   * @return libfuse's exit status: 0 after an unmount, non-zero if mounting failed (libfuse prints why to stderr)
   */
  int run(FuseFilesystem fs, Path mountpoint, FuseOptions options);
}
