package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code kernel_cache} and {@code auto_cache} reach libfuse and change what the kernel asks for, observed through the
 * READ callback counter over a real mount: by default every open drops the file's pages, so a second {@code cat} reads
 * again; with {@code kernel_cache} the second {@code cat} is served from the page cache; with {@code auto_cache} too,
 * until the file's mtime or size changes.
 */
class PageCacheOptionsTest {
  private static final int SIZE = 256 * 1024;

  private interface Step {
    void run(InMemoryVfs vfs) throws Exception;
  }

  /** READ callbacks of three {@code cat}s of one file, with {@code between} run after the second: {1st, 2nd, 3rd}. */
  private static long[] catThreeTimes(FuseOptions options, Step between) throws Exception {
    InMemoryVfs vfs = new InMemoryVfs();
    FileHandle h = vfs.create("/f", 0644, OpenFlags.READ_WRITE, true, Caller.ROOT);
    vfs.write(h, 0, ByteBuffer.wrap(new byte[SIZE]));
    vfs.release(h);
    Path mp = TestMounts.newMountpoint("pagecache");
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(vfs, mp, options);
      String cat = "cat " + q(mp.resolve("f")) + " | wc -c";
      long[] reads = new long[3];
      for (int i = 0; i < 3; i++) {
        if (i == 2) {
          between.run(vfs);
        }
        long before = m.stats().count(FuseOp.READ);
        long size = Long.parseLong(sh(cat).ok().out().trim());
        assertThat(size).isGreaterThanOrEqualTo(SIZE);
        reads[i] = m.stats().count(FuseOp.READ) - before;
      }
      return reads;
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  /** Appends one byte through the VFS, as another client of the same engine would (new size and mtime). */
  private static void grow(InMemoryVfs vfs) {
    FileHandle h = vfs.open("/f", OpenFlags.READ_WRITE, Caller.ROOT);
    vfs.write(h, SIZE, ByteBuffer.wrap(new byte[] {1}));
    vfs.release(h);
  }

  private static FuseOptions.Builder base() {
    // attributes are not cached by the kernel, so auto_cache sees a change at the next open
    return FuseOptions.builder().attrTimeout(0).entryTimeout(0).negativeTimeout(0);
  }

  @Test
  void byDefaultEveryOpenReadsTheFileAgain() throws Exception {
    long[] n = catThreeTimes(base().build(), PageCacheOptionsTest::grow);
    assertThat(n[0]).isPositive();
    assertThat(n[1]).as("second cat").isPositive();
  }

  @Test
  void kernelCacheKeepsPagesAcrossOpens() throws Exception {
    long[] n = catThreeTimes(base().kernelCache(true).build(), vfs -> {});
    assertThat(n[0]).isPositive();
    assertThat(n[1]).as("second cat, from the page cache").isZero();
    assertThat(n[2]).as("third cat").isZero();
  }

  @Test
  void autoCacheKeepsPagesUntilMtimeOrSizeChanges() throws Exception {
    long[] n = catThreeTimes(base().autoCache(true).build(), PageCacheOptionsTest::grow);
    assertThat(n[0]).isPositive();
    assertThat(n[1]).as("second cat, unchanged file").isZero();
    assertThat(n[2]).as("third cat, after the file grew").isPositive();
  }
}
