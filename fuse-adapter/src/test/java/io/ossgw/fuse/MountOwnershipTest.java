package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A process only unmounts the mount it made (issue 9 item 1), identified by {@link MountIdentity}; and closing a
 * mount does not wait for a session that has nothing to serve (issue 13 item 8).
 */
class MountOwnershipTest {

  @Test
  void identityIsTheKernelsIdDeviceAndPath() throws Exception {
    Path mp = TestMounts.newMountpoint("ident");
    MountedFilesystem m = null;
    try {
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
      MountIdentity id = m.identity();
      List<MountInfo.Entry> table = MountInfo.read();
      assertThat(id.isTopmostIn(table)).isTrue();
      assertThat(id.mountPoint()).isEqualTo(StaleMounts.mountTableKey(mp));
      // mountinfo's major:minor is the st_dev of the files in the mount (Linux dev_t encoding)
      long dev = (Long) Files.getAttribute(mp, "unix:dev");
      long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
      long minor = (dev & 0xff) | ((dev >>> 12) & ~0xffL);
      assertThat(id.device()).isEqualTo(major + ":" + minor);
      assertThat(id.matches(new MountInfo.Entry(id.mountId(), 1, "0:1", "/", id.mountPoint(), "rw", "fuse.ossgw",
          "oss:b", ""))).as("same id, other device: a different mount").isFalse();
    } finally {
      TestMounts.cleanup(m, mp);
    }
  }

  @Test
  void onlyADeadMountWithOurIdentityMayBeDetachedAfterTheSessionEnded() {
    MountIdentity id = new MountIdentity(103, "0:77", "/mnt/x");
    MountInfo.Entry same = new MountInfo.Entry(103, 1, "0:77", "/", "/mnt/x", "rw", "fuse.ossgw", "oss:b", "");
    MountInfo.Entry otherDevice = new MountInfo.Entry(103, 1, "0:78", "/", "/mnt/x", "rw", "fuse.ossgw", "oss:b", "");
    assertThat(MountedFilesystem.mayDetachAfterEnd(id, status(StaleMounts.State.DEAD, same))).isTrue();
    assertThat(MountedFilesystem.mayDetachAfterEnd(id, status(StaleMounts.State.UNRESPONSIVE, same))).isTrue();
    assertThat(MountedFilesystem.mayDetachAfterEnd(id, status(StaleMounts.State.LIVE, same)))
        .as("a mount that answers is served by someone else").isFalse();
    assertThat(MountedFilesystem.mayDetachAfterEnd(id, status(StaleMounts.State.DEAD, otherDevice))).isFalse();
    assertThat(MountedFilesystem.mayDetachAfterEnd(id, status(StaleMounts.State.NOT_MOUNTED, null))).isFalse();
  }

  /**
   * The scenario through the kernel, with the reuse of both numbers simulated: A is lazily unmounted while a
   * file keeps its session alive, B is mounted at the same path, and A is told it has B's id and device (what the
   * kernel does when it hands A's freed numbers to B). When A's session ends, B must stay mounted and usable.
   */
  @Test
  void anEndingSessionLeavesANewerMountWithItsIdAndDeviceAlone() throws Exception {
    Path mp = TestMounts.newMountpoint("reuse");
    MountedFilesystem a = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
    MountedFilesystem b = null;
    try {
      Path f = mp.resolve("held.txt");
      Files.writeString(f, "a");
      try (FileChannel held = FileChannel.open(f, StandardOpenOption.READ)) {
        sh("umount -l " + q(mp)).ok(); // `ossgw umount` falls back to this when A is busy
        b = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
        a.mounted(b.identity());
      } // the last file of A is closed: A's session ends and A cleans up after itself
      assertThat(a.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(10)))).isTrue();
      assertThat(b.identity().isTopmostIn(MountInfo.read())).as("B is still mounted").isTrue();
      Files.writeString(mp.resolve("b.txt"), "b");
      assertThat(Files.readString(mp.resolve("b.txt"))).isEqualTo("b");
      assertThat(b.isMounted()).isTrue();
      a.close(); // must not unmount B either
      assertThat(b.identity().isTopmostIn(MountInfo.read())).isTrue();
    } finally {
      TestMounts.cleanup(b, mp);
    }
  }

  /**
   * A copy of the mount in another mount namespace keeps the FUSE connection open after our unmount, so the libfuse
   * loop does not return; with no open files {@link MountedFilesystem#close()} must not wait for it (a Ctrl-C of the
   * demo took 20.6 s, two 10 s waits for sessions that served 0 open files).
   */
  @Test
  void closeDoesNotWaitForASessionWithNoOpenFiles() throws Exception {
    Path mp = TestMounts.newMountpoint("nswait");
    MountedFilesystem m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
    Process copy = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", "-c",
        "echo ready; exec sleep 60").redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(copy.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("ready");
      long t0 = System.nanoTime();
      m.close();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertThat(TestMounts.isMountPoint(mp)).isFalse();
      assertThat(m.isMounted()).as("the copy keeps the session alive").isTrue();
      assertThat(ms).as("close() took %d ms", ms).isLessThan(Slowdown.scaledMillis(2_000));
    } finally {
      copy.destroyForcibly().waitFor();
      assertThat(m.awaitUnmounted(Slowdown.scaled(Duration.ofSeconds(10)))).as("the session ends with the copy")
          .isTrue();
      TestMounts.cleanup(m, mp);
    }
  }

  private static StaleMounts.Status status(StaleMounts.State state, MountInfo.Entry e) {
    return new StaleMounts.Status(e == null ? "/mnt/x" : e.mountPoint(), state, e, null);
  }
}
