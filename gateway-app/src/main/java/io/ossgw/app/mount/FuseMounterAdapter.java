package io.ossgw.app.mount;

import io.ossgw.app.lifecycle.HeapGuard;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.fuse.FuseMounter;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.FuseStats;
import io.ossgw.fuse.MountIdentity;
import io.ossgw.fuse.MountedFilesystem;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** The real {@link Mounter}: fuse-adapter's {@link FuseMounter} (jnr-fuse over libfuse 2). */
public final class FuseMounterAdapter implements Mounter {

  @Override
  public MountHandle mount(VirtualFileSystem fs, Path mountpoint, FuseOptions options) {
    MountedFilesystem m = FuseMounter.mount(fs, mountpoint, options);
    return new Handle(m, mountpoint);
  }

  private static final class Handle implements MountHandle {
    private final MountedFilesystem m;
    private final Path mountpoint;
    private final CountDownLatch gone = new CountDownLatch(1);
    private final HeapGuard.Registration onFatal;
    private final DetachHelper detach;

    Handle(MountedFilesystem m, Path mountpoint) {
      this.m = m;
      this.mountpoint = mountpoint;
      // A process halted for an exhausted heap must not leave the mount behind dead (issue 21 item 4).
      this.detach = HeapGuard.installed() ? DetachHelper.start(m.identity(), mountpoint) : null;
      this.onFatal = HeapGuard.onFatal(() -> {
        if (detach == null) {
          String mp = mountpoint.toString();
          return "ossgw: " + mp + " is left as a dead mount; clear it with: fusermount -u -z '" + mp
              + "' (or: ossgw umount '" + mp + "')";
        }
        detach.trigger();
        detach.awaitDone(5_000);
        return null;
      });
      // One watcher per mount turns the blocking awaitUnmounted into a flag that health checks can read cheaply.
      Thread.ofVirtual().name("ossgw-mount-watch").start(() -> {
        try {
          m.awaitUnmounted();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          gone.countDown();
        }
      });
    }

    @Override
    public Path mountpoint() {
      return mountpoint;
    }

    @Override
    public MountIdentity identity() {
      return m.identity();
    }

    @Override
    public FuseStats stats() {
      return m.stats();
    }

    @Override
    public boolean isMounted() {
      return gone.getCount() > 0;
    }

    @Override
    public void awaitUnmounted() throws InterruptedException {
      gone.await();
    }

    @Override
    public void close() {
      onFatal.close();
      if (detach != null) {
        detach.close();
      }
      m.close();
    }
  }
}
