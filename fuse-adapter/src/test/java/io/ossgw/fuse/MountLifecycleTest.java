package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.testsupport.Slowdown;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Mounting preconditions, unmounting (ours, external, busy) and both threading modes. */
class MountLifecycleTest {

  @Test
  void refusesMissingMountpoint() throws Exception {
    Path mp = TestMounts.newMountpoint("missing");
    Files.delete(mp);
    assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults()))
        .isInstanceOf(MountException.class)
        .hasMessageContaining("does not exist")
        .hasMessageContaining("mkdir -p");
  }

  @Test
  void refusesAFile() throws Exception {
    Path f = Files.createTempFile("ossgw-notdir", ".txt");
    try {
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), f, FuseOptions.defaults()))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("not a directory");
    } finally {
      Files.delete(f);
    }
  }

  @Test
  void refusesNonEmptyDirectoryUnlessNonempty() throws Exception {
    Path mp = TestMounts.newMountpoint("nonempty");
    Path marker = Files.writeString(mp.resolve("underneath.txt"), "hidden while mounted");
    MountedFilesystem m = null;
    try {
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults()))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("not empty")
          .hasMessageContaining("nonempty");
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.builder().nonempty(true).build());
      assertThat(Files.exists(marker)).as("covered by the mount").isFalse();
      m.close();
      assertThat(Files.readString(marker)).isEqualTo("hidden while mounted");
    } finally {
      TestMounts.cleanup(m, mp);
      Files.deleteIfExists(marker);
      Files.deleteIfExists(mp);
    }
  }

  @Test
  void refusesAnExistingMountWithTheCommandToUse() throws Exception {
    Path mp = TestMounts.newMountpoint("twice");
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults()))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("already a mount point")
          .hasMessageContaining("fusermount -u " + mp);
      assertThat(FuseMounter.mounts()).contains(m);
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void refusedOptionsFailTheMountAndLeaveNothing() throws Exception {
    Path mp = TestMounts.newMountpoint("badopt");
    try {
      FuseOptions bad = FuseOptions.builder().extraOption("no_such_fuse_option").build();
      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, bad))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("exit status");
      assertThat(TestMounts.isMountPoint(mp)).isFalse();
    } finally {
      TestMounts.cleanup(null, mp);
    }
  }

  @Test
  void closeIsIdempotentWaitsAndLeavesNothingBehind() throws Exception {
    Path mp = TestMounts.newMountpoint("close");
    MountedFilesystem m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
    try {
      assertThat(m.mountpoint()).isEqualTo(Path.of(StaleMounts.mountTableKey(mp)));
      assertThat(MountInfo.byId(MountInfo.read(), m.mountId()).orElseThrow().fsType()).isEqualTo("fuse.ossgw");
      Files.writeString(mp.resolve("f"), "data");
      m.close();
      assertThat(TestMounts.isMountPoint(mp)).isFalse();
      // close() gives the libfuse loop 200 ms to return after the unmount; on a busy machine it takes longer
      assertThat(m.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(10)))).isTrue();
      assertThat(m.isMounted()).isFalse();
      try (var s = Files.list(mp)) {
        assertThat(s).isEmpty();
      }
      m.close(); // idempotent
      assertThat(FuseMounter.mounts()).doesNotContain(m);
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void mountpointWithSpaceBackslashAndUtf8IsFoundInMountinfo() throws Exception {
    Path parent = TestMounts.newMountpoint("odd");
    Path mp = Files.createDirectory(parent.resolve("a b\\c ü"));
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
      MountInfo.Entry e = MountInfo.byId(MountInfo.read(), m.mountId()).orElseThrow();
      assertThat(e.mountPoint()).isEqualTo(StaleMounts.mountTableKey(mp)).endsWith("/a b\\c ü");
      assertThat(StaleMounts.check(mp).state()).isEqualTo(StaleMounts.State.LIVE);
      Files.writeString(mp.resolve("f"), "x");
      m.close();
      assertThat(StaleMounts.check(mp).state()).isEqualTo(StaleMounts.State.NOT_MOUNTED);
    } finally {
      TestMounts.cleanup(m, mp);
      Files.deleteIfExists(parent);
    }
  }

  @Test
  void externalUnmountEndsTheSession() throws Exception {
    Path mp = TestMounts.newMountpoint("external");
    MountedFilesystem m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
    try {
      sh("fusermount -u " + q(mp)).ok();
      assertThat(m.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(5)))).isTrue();
      assertThat(FuseMounter.mounts()).doesNotContain(m);
      m.close();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void closeWhileAFileIsOpenDetachesLazilyAndTheFileStaysUsable() throws Exception {
    Path mp = TestMounts.newMountpoint("busy");
    InMemoryVfs vfs = new InMemoryVfs();
    MountedFilesystem m = FuseMounter.mount(vfs, mp, FuseOptions.defaults());
    try {
      Path f = mp.resolve("open.txt");
      Files.writeString(f, "kept open");
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        m.close(); // fusermount -u fails with EBUSY, -z detaches
        assertThat(TestMounts.isMountPoint(mp)).isFalse();
        ByteBuffer b = ByteBuffer.allocate(32);
        ch.read(b, 0);
        assertThat(new String(b.array(), 0, b.position())).isEqualTo("kept open");
      }
      assertThat(m.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(5)))).as("session ends with the last file")
          .isTrue();
      assertThat(vfs.openHandles()).isZero();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void singleThreadedModeServesEverything() throws Exception {
    Path mp = TestMounts.newMountpoint("single");
    MountedFilesystem m = FuseMounter.mount(new InMemoryVfs(), mp,
        FuseOptions.builder().singleThreaded(true).build());
    try {
      byte[] data = FileIoMountTest.random(3 * 1024 * 1024 + 11, 7);
      Files.write(mp.resolve("s.bin"), data);
      assertThat(Files.readAllBytes(mp.resolve("s.bin"))).isEqualTo(data);
      Files.createDirectories(mp.resolve("a/b"));
      Files.move(mp.resolve("s.bin"), mp.resolve("a/b/t.bin"));
      assertThat(sh("ls -lR " + q(mp)).ok().out()).contains("t.bin");
      assertThat(m.stats().count(FuseOp.WRITE)).isPositive();
      assertThat(m.stats().errors(FuseOp.WRITE)).isZero();
    } finally {
      TestMounts.cleanup(m, mp);
    }
    assertThat(TestMounts.isMountPoint(mp)).isFalse();
  }

  @Test
  void readOnlyMountRefusesWritesInTheKernel() throws Exception {
    Path mp = TestMounts.newMountpoint("ro");
    InMemoryVfs vfs = new InMemoryVfs();
    vfs.release(vfs.create("/r.txt", 0644, OpenFlags.READ_WRITE, true, Caller.ROOT));
    MountedFilesystem m = FuseMounter.mount(vfs, mp, FuseOptions.builder().readOnly(true).build());
    try {
      Sh.Result r = sh("echo x > " + q(mp.resolve("new.txt")));
      assertThat(r.err()).contains("Read-only file system");
      assertThat(m.stats().count(FuseOp.CREATE)).isZero();
      assertThat(Files.exists(mp.resolve("r.txt"))).isTrue();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void mountsListsOnlyLiveMounts() throws Exception {
    Path a = TestMounts.newMountpoint("list-a");
    Path b = TestMounts.newMountpoint("list-b");
    MountedFilesystem ma = null;
    MountedFilesystem mb = null;
    try {
      ma = FuseMounter.mount(new InMemoryVfs(), a, FuseOptions.defaults());
      mb = FuseMounter.mount(new InMemoryVfs(), b, FuseOptions.builder().singleThreaded(true).build());
      assertThat(FuseMounter.mounts()).contains(ma, mb);
      ma.close();
      assertThat(FuseMounter.mounts()).contains(mb).doesNotContain(ma);
      // the remaining mount still serves: a missing name is ENOENT, a new file round-trips
      assertThatThrownBy(() -> Files.readString(b.resolve("missing.txt")))
          .isInstanceOf(java.nio.file.NoSuchFileException.class);
      Files.writeString(b.resolve("written.txt"), "b");
      assertThat(Files.readString(b.resolve("written.txt"))).isEqualTo("b");
    } finally {
      TestMounts.cleanup(ma, a);
      TestMounts.cleanup(mb, b);
    }
    assertThat(List.of(TestMounts.isMountPoint(a), TestMounts.isMountPoint(b))).containsOnly(false);
  }
}
