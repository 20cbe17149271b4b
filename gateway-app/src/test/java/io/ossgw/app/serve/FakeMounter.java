package io.ossgw.app.serve;

import io.ossgw.app.mount.MountHandle;
import io.ossgw.app.mount.Mounter;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.fuse.FuseOptions;
import io.ossgw.fuse.FuseStats;
import io.quarkus.test.Mock;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** Replaces FUSE in @QuarkusTests: "mounts" without the kernel, and can pretend the mount went away. */
@Mock
@ApplicationScoped
public class FakeMounter implements Mounter {
  private volatile Handle last;

  /** The last mount made (a method, not a field: the test sees this bean through a client proxy). */
  Handle last() {
    return last;
  }

  @Override
  public MountHandle mount(VirtualFileSystem fs, Path mountpoint, FuseOptions options) {
    last = new Handle(mountpoint);
    return last;
  }

  /** A fake mount. */
  static final class Handle implements MountHandle {
    final Path mountpoint;
    final FuseStats stats = new FuseStats();
    final CountDownLatch gone = new CountDownLatch(1);

    Handle(Path mountpoint) {
      this.mountpoint = mountpoint;
    }

    @Override
    public Path mountpoint() {
      return mountpoint;
    }

    @Override
    public FuseStats stats() {
      return stats;
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
      gone.countDown();
    }
  }
}
