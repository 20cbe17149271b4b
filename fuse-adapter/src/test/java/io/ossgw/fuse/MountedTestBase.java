package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
  void unmount() {
    Path p = mnt;
    TestMounts.cleanup(m, p);
    assertThat(TestMounts.isMountPoint(p)).as("mount left behind at %s", p).isFalse();
    assertThat(m.isMounted()).isFalse();
  }
}
