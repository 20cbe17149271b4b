package io.ossgw.app.mount;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.fuse.FuseOptions;
import java.nio.file.Path;

/** Mounts a file system with FUSE; a seam so that tests of the app can run without the kernel. */
public interface Mounter {
  /**
   * Mounts {@code fs} at {@code mountpoint} and returns once the kernel mount is live.
   *
   * @throws io.ossgw.fuse.MountException with a message for the user (stale mount, not empty, no /dev/fuse ...)
   */
  MountHandle mount(VirtualFileSystem fs, Path mountpoint, FuseOptions options);
}
