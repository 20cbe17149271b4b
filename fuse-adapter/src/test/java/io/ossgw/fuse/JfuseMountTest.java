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
 * What only the jfuse (libfuse3) binding does, through a real mount: 1 MiB requests, and the struct fields jfuse's API
 * cannot set (st_ino with use_ino, st_blksize, st_blocks). The shared mount tests also run on this binding (the
 * {@code jfuse-mount-tests} profile in the pom). Skips, saying why, where libfuse3 is not installed.
 */
class JfuseMountTest {
  @Test
  void negotiatesOneMebibyteRequestsAndFillsTheStatFieldsJfuseLacks() throws Exception {
    JfuseBinding binding = new JfuseBinding();
    try {
      binding.load();
    } catch (MountException e) {
      assumeTrue(false, "libfuse3 is not installed (apt-get install libfuse3-3): " + e.getMessage());
    }
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
}
