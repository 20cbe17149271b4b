package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The names a READDIRPLUS listing gives the kernel are bounded (jfuse's {@code ListedNames}, issue 21: libfuse keeps a
 * node per name the kernel holds, outside the JVM): with {@code -Dio.ossgw.fuse.readdirplus_keep=1000}, after an {@code
 * ls -l} of 3,000 files (which looks nothing up) the kernel has dropped all but 1,000-1,250 of them (in bursts of 250),
 * so a {@code stat} of every name looks those 1,750-2,000 up again; with it off (0) the kernel answers them all from its cache (entry_timeout 60).
 */
class ListedNamesTest {
  private static final int FILES = 3000;
  /** More than {@code ls} reads ahead of its lstat calls: one 32 KiB getdents buffer of glibc, about 800 names. */
  private static final int KEEP = 1000;

  /** {invalidated names, GETATTR callbacks of a stat of every name after the listing, GETATTR of the listing}. */
  private static long[] listThenStat(int keep) throws Exception {
    Path mp = TestMounts.newMountpoint("listed");
    MountedFilesystem m = null;
    try {
      m = mountMany(mp, FILES, keep);
      assumeTrue(m.binding().contains("libfuse3"), "READDIRPLUS needs the jfuse binding");
      Path dir = mp.resolve("many");
      long l0 = m.stats().count(FuseOp.GETATTR);
      assertThat(sh("ls -l " + q(dir) + " | wc -l").ok().out().trim()).isEqualTo(String.valueOf(FILES + 1));
      long listing = m.stats().count(FuseOp.GETATTR) - l0;
      long deadline = System.nanoTime() + 60_000_000_000L; // generous: the invalidating thread runs beside the test
      // until fewer than keep + a burst are left: the last burst is done and no other follows
      while (keep > 0 && FILES - m.stats().namesInvalidated() >= keep + keep / 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      long invalidated = m.stats().namesInvalidated();
      long g0 = m.stats().count(FuseOp.GETATTR);
      // every name by itself (no glob: a readdir would give the kernel the names again)
      String stat = "cd " + q(dir) + " && seq 0 " + (FILES - 1) + " | sed 's/^/file-/' | xargs stat -c %n | wc -l";
      assertThat(sh(stat).ok().out().trim()).isEqualTo(String.valueOf(FILES));
      return new long[] {invalidated, m.stats().count(FuseOp.GETATTR) - g0, listing};
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  /**
   * Mounts an {@link InMemoryVfs} with {@code files} files under {@code /many}, the kernel keeping {@code keep} listed
   * names (the property is read when the mount starts, and restored after).
   */
  private static MountedFilesystem mountMany(Path mp, int files, int keep) throws Exception {
    InMemoryVfs vfs = InMemoryVfs.withManyFiles(files);
    String old = System.setProperty("io.ossgw.fuse.readdirplus_keep", String.valueOf(keep));
    try {
      return FuseMounter.mount(vfs, mp, FuseOptions.builder().entryTimeout(60).attrTimeout(60).build());
    } finally {
      if (old == null) {
        System.clearProperty("io.ossgw.fuse.readdirplus_keep");
      } else {
        System.setProperty("io.ossgw.fuse.readdirplus_keep", old);
      }
    }
  }

  @Test
  void theKernelKeepsAboutKeepNamesOfAListing() throws Exception {
    long[] n = listThenStat(KEEP);
    // ls stats each name as it reads it, mostly before the name is dropped: GETATTRs of the directory itself, one
    // after each invalidation an lstat follows (each marks the directory's attributes stale: the kernel's
    // fuse_dir_changed), 7-70 seen on a quiet machine, and under load (552 seen at load 8) LOOKUPs of names the
    // invalidating thread dropped before ls reached them; never one per dropped name (1,750 or more)
    assertThat(n[2]).as("GETATTR of the ls -l").isLessThan((long) FILES - KEEP - KEEP / 4);
    // down to KEEP names, in bursts of KEEP / 4
    assertThat(n[0]).as("names invalidated").isBetween((long) FILES - KEEP - KEEP / 4 + 1, (long) FILES - KEEP);
    // the kept names are still cached: only dropped ones are looked up again, each once, during the ls (dropped
    // before ls reached it) or in the stat of every name (dropped after)
    assertThat(n[1]).as("GETATTR of a stat of every name").isLessThanOrEqualTo(n[0] + 10);
    assertThat(n[1] + n[2]).as("GETATTR of both: every dropped name looked up again").isGreaterThanOrEqualTo(n[0]);
  }

  /**
   * A {@code find} (getdents after getdents, no stat between them) of a directory 2.5 times the queue's bound: the
   * invalidating threads keep up with it (each drop waits for the directory's lock, which every getdents takes; several
   * threads waiting together get in between two of them), so fewer than 1 % of the names are left to the kernel's
   * reclaim, none in the runs seen, under load 4-6 too. With one thread 47,500-50,000 of the 100,000 were.
   */
  @Test
  void theDropsKeepUpWithAFindPastTheirBound() throws Exception {
    int keep = 10_000; // the queue's bound: 40,000
    int files = 100_000;
    Path mp = TestMounts.newMountpoint("listed-fast");
    MountedFilesystem m = null;
    try {
      m = mountMany(mp, files, keep);
      assumeTrue(m.binding().contains("libfuse3"), "READDIRPLUS needs the jfuse binding");
      assertThat(sh("find " + q(mp.resolve("many")) + " | wc -l").ok().out().trim())
          .isEqualTo(String.valueOf(files + 1));
      assertThat(m.stats().namesNotTracked()).as("names left to the kernel's reclaim").isLessThan(files / 100);
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void offTheKernelKeepsTheWholeListing() throws Exception {
    long[] n = listThenStat(0);
    assertThat(n[0]).isZero();
    assertThat(n[1]).as("GETATTR of a stat of every name").isLessThanOrEqualTo(5);
  }
}
