package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.fuse.jnr.JnrFuseBinding;
import io.ossgw.testsupport.Slowdown;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** FuseMounter's failure paths, driven through stand-in bindings. */
class FuseMounterFailureTest {

  /** A binding that delegates to the real one, optionally after a delay. */
  private static class Wrapped implements FuseBinding {
    final FuseBinding real = new JnrFuseBinding();

    @Override
    public String name() {
      return "wrapped";
    }

    @Override
    public void load() {
      real.load();
    }

    @Override
    public List<String> arguments(FuseOptions options) {
      return real.arguments(options);
    }

    @Override
    public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
      return real.run(fs, mountpoint, options);
    }
  }

  @Test
  void aMissingLibraryIsReportedWithTheInstallCommand() throws Exception {
    Path mp = TestMounts.newMountpoint("nolib");
    try {
      FuseBinding noLib = new Wrapped() {
        @Override
        public void load() {
          throw new MountException("libfuse2 (libfuse.so.2) cannot be loaded. Install it with: apt-get install libfuse2 fuse");
        }
      };
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults(), noLib))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("apt-get install libfuse2 fuse");
    } finally {
      TestMounts.cleanup(null, mp);
    }
  }

  @Test
  void aSessionThatExitsAtOnceFailsTheMount() throws Exception {
    Path mp = TestMounts.newMountpoint("exit1");
    try {
      FuseBinding exits = new Wrapped() {
        @Override
        public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
          return 1;
        }
      };
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults(), exits))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("exit status 1");
    } finally {
      TestMounts.cleanup(null, mp);
    }
  }

  /**
   * A session that ends normally (status 0: libfuse mounted, and its loop saw the mount go) before the kernel's INIT
   * was served was unmounted from outside right after mounting, as a busy machine lets `fusermount -u` do (issue 21
   * item 5: `ossgw mount -f` then exited 1, "libfuse could not mount ... (exit status 0)"). Not a failure: the mount
   * comes back as one that has already ended.
   */
  @Test
  void aSessionUnmountedBeforeItsInitEndedCleanly() throws Exception {
    Path mp = TestMounts.newMountpoint("noinit");
    MountedFilesystem m = null;
    try {
      FuseBinding unmountedAtOnce = new Wrapped() {
        @Override
        public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
          return 0;
        }
      };
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults(), unmountedAtOnce);
      assertThat(m.isMounted()).isFalse();
      assertThat(m.identity()).isNull();
      m.close();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  /**
   * The mount timeout counts from the binding's call into libfuse: a binding slow to prepare (JVM work, as on a busy
   * machine) is waited for (issue 21 item 5: "did not become live within 10000 ms (no entry in mountinfo)").
   */
  @Test
  void aBindingSlowToPrepareIsNotTimedOut() throws Exception {
    Path mp = TestMounts.newMountpoint("prepare");
    MountedFilesystem m = null;
    try {
      Duration timeout = Slowdown.scaled(Duration.ofSeconds(5)); // enough for the real mount once asked
      FuseBinding slow = new Wrapped() {
        @Override
        public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
          try {
            Thread.sleep(timeout.toMillis() + 2000); // preparing, for longer than the timeout: libfuse not asked yet
            return super.run(fs, mountpoint, options);
          } catch (InterruptedException e) {
            return -1;
          }
        }
      };
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.builder().mountTimeout(timeout).build(), slow);
      assertThat(TestMounts.isMountPoint(mp)).isTrue();
      m.close();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void aMountThatComesUpAfterTheTimeoutDetachesItself() throws Exception {
    Path mp = TestMounts.newMountpoint("late");
    CountDownLatch ended = new CountDownLatch(1);
    try {
      FuseBinding late = new Wrapped() {
        @Override
        public int run(FuseFilesystem fs, Path mountpoint, FuseOptions options) {
          try {
            fs.mounting(); // libfuse is asked to mount, and takes its time
            Thread.sleep(Slowdown.scaledMillis(1500)); // well after the 300 ms, however busy the machine
            return super.run(fs, mountpoint, options);
          } catch (InterruptedException e) {
            return -1;
          } finally {
            ended.countDown();
          }
        }
      };
      FuseOptions quick = FuseOptions.builder().mountTimeout(Duration.ofMillis(300)).build();
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, quick, late))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("did not become live within 300 ms");
      // the late session mounts, answers INIT, sees it was abandoned and unmounts itself
      assertThat(ended.await(Slowdown.scaledMillis(15_000), TimeUnit.MILLISECONDS)).isTrue();
      assertThat(TestMounts.isMountPoint(mp)).isFalse();
    } finally {
      TestMounts.cleanup(null, mp);
    }
  }
}
