package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** One real FUSE mount of an {@link InMemoryVfs} shared by the tests of a class; always unmounted afterwards. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MountedTestBase {
  protected InMemoryVfs vfs;
  protected MountedFilesystem m;
  protected Path mnt;

  /** Options for this class's mount; multithreaded defaults unless overridden. */
  protected FuseOptions options() {
    return FuseOptions.builder().fsname("oss:test").build();
  }

  @BeforeAll
  void mount() throws Exception {
    vfs = new InMemoryVfs();
    mnt = TestMounts.newMountpoint(getClass().getSimpleName());
    m = FuseMounter.mount(vfs, mnt, options());
  }

  @AfterAll
  void unmount() throws InterruptedException {
    Path p = mnt;
    TestMounts.cleanup(m, p);
    assertThat(TestMounts.isMountPoint(p)).as("mount left behind at %s", p).isFalse();
    // close() gives the libfuse loop 200 ms to return after the unmount; on a busy machine it takes longer
    assertThat(m.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(10)))).as("the FUSE session ended").isTrue();
  }
}
