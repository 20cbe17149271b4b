package io.ossgw.app.mount;

import io.ossgw.fuse.FuseStats;
import io.ossgw.fuse.MountIdentity;
import java.nio.file.Path;

/** A live FUSE mount as the app sees it: its counters, whether it is still mounted, and how to unmount it. */
public interface MountHandle extends AutoCloseable {
  /** The absolute mount point. */
  Path mountpoint();

  /** Which kernel mount this is, or null if unknown (a fake, or a mount that ended before it was seen). */
  default MountIdentity identity() {
    return null;
  }

  /** Per-operation callback counters. */
  FuseStats stats();

  /** False once the mount is gone (closed here, or unmounted from outside with {@code fusermount -u}). */
  boolean isMounted();

  /** Blocks until the mount is gone. */
  void awaitUnmounted() throws InterruptedException;

  /** Unmounts (if still mounted) and waits until the kernel mount is gone; idempotent. */
  @Override
  void close();
}
