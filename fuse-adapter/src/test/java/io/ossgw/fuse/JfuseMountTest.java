package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ossgw.fuse.jfuse.JfuseBinding;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What only the jfuse (libfuse3) binding does, through a real mount: 1 MiB requests, the struct fields jfuse's API
 * cannot set (st_ino with use_ino, st_blksize, st_blocks), READDIRPLUS entries with attributes. The shared mount
 * tests run on this binding by default when libfuse3 is installed, and on jnr-fuse again through the {@code
 * jnr-mount-tests} profile in the pom. Skips, saying why, where libfuse3 is not installed.
 */
class JfuseMountTest {
  @Test
  void negotiatesOneMebibyteRequestsAndFillsTheStatFieldsJfuseLacks() throws Exception {
    JfuseBinding binding = loadedOrSkip();
    InMemoryVfs vfs = new InMemoryVfs();
    Path mp = TestMounts.newMountpoint("jfuse");
    FuseOptions options = FuseOptions.builder().fsname("oss:jfuse")
        .maxWrite(FuseOptions.MAX_REQUEST).maxRead(FuseOptions.MAX_REQUEST).build();
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(vfs, mp, options, binding);
      assertThat(m.binding()).contains("libfuse3");
      assertThat(m.stats().connection().maxWrite()).isEqualTo(1 << 20);

      byte[] data = new byte[4 << 20];
      new Random(6).nextBytes(data);
      Path f = mp.resolve("four.bin");
      long writesBefore = m.stats().count(FuseOp.WRITE);
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(data);
        while (b.hasRemaining()) {
          ch.write(b);
        }
      }
      // 4 MiB in 1 MiB WRITE requests; with libfuse2's 128 KiB it would take 32
      assertThat(m.stats().count(FuseOp.WRITE) - writesBefore).isBetween(4L, 8L);
      assertThat(Files.readAllBytes(f)).isEqualTo(data);

      assertThat((Long) Files.getAttribute(f, "unix:ino")).isEqualTo(vfs.getattr("/four.bin").ino());
      assertThat(Sh.run(java.util.List.of("stat", "-c", "%o %b", f.toString())).out().trim())
          .isEqualTo((1 << 20) + " " + vfs.getattr("/four.bin").blocks());
    } finally {
      TestMounts.cleanup(m, mp);
    }
    assertThat(TestMounts.isMountPoint(mp)).isFalse();
  }

  /**
   * READDIRPLUS with every entry's attributes (FUSE_FILL_DIR_PLUS, readdirplus "always"): a cold {@code ls -l} of 600
   * files costs no LOOKUP, i.e. no getattr upcall, per entry, and shows the attributes getattr would give. Without
   * the plus entries libfuse 3 passes ino 0 and the kernel looks every name up (600 GETATTRs).
   */
  @Test
  void coldLongListingNeedsNoGetattrPerEntry() throws Exception {
    JfuseBinding binding = loadedOrSkip();
    InMemoryVfs vfs = new InMemoryVfs();
    vfs.mkdir("/d", 0755, io.ossgw.core.vfs.Caller.ROOT);
    for (int i = 0; i < 600; i++) {
      vfs.release(vfs.create("/d/f" + i, 0640, io.ossgw.core.vfs.OpenFlags.READ_WRITE, true,
          io.ossgw.core.vfs.Caller.ROOT));
    }
    Path mp = TestMounts.newMountpoint("jfuse-rdp");
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(vfs, mp, FuseOptions.builder().fsname("oss:rdp").build(), binding);
      long before = m.stats().count(FuseOp.GETATTR);
      String out = Sh.run(java.util.List.of("ls", "-ln", mp.resolve("d").toString())).ok().out();
      assertThat(out.lines().filter(l -> l.startsWith("-rw-r-----")).count()).isEqualTo(600);
      assertThat(m.stats().count(FuseOp.GETATTR) - before).as("getattr upcalls for ls -l of 600").isLessThan(10);
      assertThat(Sh.run(java.util.List.of("stat", "-c", "%a %s %i", mp.resolve("d/f7").toString())).ok().out().trim())
          .isEqualTo("640 0 " + vfs.getattr("/d/f7").ino());
    } finally {
      TestMounts.cleanup(m, mp);
    }
    assertThat(TestMounts.isMountPoint(mp)).isFalse();
  }

  /** The jfuse binding with libfuse3 loaded; the test is skipped, saying why, where libfuse3 is not installed. */
  private static JfuseBinding loadedOrSkip() {
    JfuseBinding binding = new JfuseBinding();
    try {
      binding.load();
    } catch (MountException e) {
      assumeTrue(false, "libfuse3 is not installed (apt-get install libfuse3-3): " + e.getMessage());
    }
    return binding;
  }
}
