package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The kernel's entry/attribute caches, observed through the callback counters: with timeouts on, a second {@code ls
 * -l} of 1,000 files is answered by the kernel (about one GETATTR for the directory itself); with timeouts 0 every
 * file is looked up again.
 */
class KernelCacheTest {
  private static final int FILES = 1000;

  /** Counts GETATTR callbacks of a cold and a warm {@code ls -l}: {cold, warm}. */
  private static long[] lsTwice(FuseOptions options) throws Exception {
    InMemoryVfs vfs = InMemoryVfs.withManyFiles(FILES);
    Path mp = TestMounts.newMountpoint("cache");
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(vfs, mp, options);
      String ls = "ls -l " + q(mp.resolve("many")) + " | wc -l";
      long g0 = m.stats().count(FuseOp.GETATTR);
      assertThat(sh(ls).ok().out().trim()).isEqualTo(String.valueOf(FILES + 1)); // "total" line + files
      long g1 = m.stats().count(FuseOp.GETATTR);
      sh(ls).ok();
      long g2 = m.stats().count(FuseOp.GETATTR);
      // paged: a few VFS pages per READDIR buffer, never a whole listing per request
      assertThat(vfs.calls("readdir")).isBetween(2L, 2L * (FILES / 8 + 2));
      return new long[] {g1 - g0, g2 - g1, m.binding().contains("libfuse3") ? 1 : 0};
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void warmLsWithTimeoutsMakesAboutOneGetattr() throws Exception {
    long[] n = lsTwice(FuseOptions.builder().entryTimeout(60).attrTimeout(60).build());
    if (n[2] == 1) {
      // jfuse: READDIRPLUS entries carry node ids and attributes, so even the cold ls -l looks nothing up
      assertThat(n[0]).as("cold ls -l on libfuse 3").isLessThanOrEqualTo(5);
    } else {
      assertThat(n[0]).as("cold ls -l looks every file up").isGreaterThanOrEqualTo(FILES);
    }
    assertThat(n[1]).as("warm ls -l").isLessThanOrEqualTo(5);
  }

  @Test
  void withoutTimeoutsEveryLsLooksEveryFileUp() throws Exception {
    long[] n = lsTwice(FuseOptions.builder().entryTimeout(0).attrTimeout(0).negativeTimeout(0).build());
    assertThat(n[0]).isGreaterThanOrEqualTo(FILES);
    assertThat(n[1]).isGreaterThanOrEqualTo(FILES);
  }
}
