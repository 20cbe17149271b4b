package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.testsupport.Slowdown;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real dead mount: a child JVM mounts, is SIGKILLed (no shutdown hook runs), and leaves "Transport endpoint is not
 * connected" behind. Detection, the refusal to mount over it, and the suggested command are checked against it.
 */
class StaleMountTest {

  @Test
  void sigkilledServerLeavesADeadMountThatIsDetectedAndCleared() throws Exception {
    Path mp = TestMounts.newMountpoint("stale");
    Process child = null;
    MountedFilesystem m = null;
    try {
      child = startChild(mp);
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(Slowdown.scaledMillis(10_000), TimeUnit.MILLISECONDS)).isTrue();

      StaleMounts.Status s = StaleMounts.check(mp);
      assertThat(s.state()).isEqualTo(StaleMounts.State.DEAD);
      assertThat(s.entry().source()).isEqualTo("oss:bench");
      assertThat(s.error()).contains("Transport endpoint is not connected");
      assertThat(s.clearCommand()).isEqualTo("fusermount -u -z " + StaleMounts.mountTableKey(mp));
      assertThat(Files.exists(mp)).as("stat fails on a dead mount").isFalse();

      assertThatThrownBy(() -> FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults()))
          .isInstanceOf(MountException.class)
          .hasMessageContaining("dead FUSE mount")
          .hasMessageContaining("Transport endpoint is not connected")
          .hasMessageContaining(s.clearCommand());

      Sh.sh(s.clearCommand()).ok();
      assertThat(StaleMounts.check(mp).state()).isEqualTo(StaleMounts.State.NOT_MOUNTED);
      m = FuseMounter.mount(new InMemoryVfs(), mp, FuseOptions.defaults());
      Files.writeString(mp.resolve("alive.txt"), "again");
      assertThat(Files.readString(mp.resolve("alive.txt"))).isEqualTo("again");
    } finally {
      if (child != null) {
        child.destroyForcibly();
      }
      TestMounts.cleanup(m, mp);
    }
    assertThat(TestMounts.isMountPoint(mp)).isFalse();
  }

  @Test
  void aDeadMountIsDetectedWhileTheKernelStillAnswersStatFromItsCache() throws Exception {
    Path mp = TestMounts.newMountpoint("stale-cached");
    Process child = null;
    try {
      child = startChild(mp);
      Files.readAttributes(mp, java.nio.file.attribute.BasicFileAttributes.class); // cached for attr_timeout (60 s)
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(Slowdown.scaledMillis(10_000), TimeUnit.MILLISECONDS)).isTrue();
      assertThat(Files.isDirectory(mp)).as("stat still answers from the cache").isTrue();

      StaleMounts.Status s = StaleMounts.check(mp);
      assertThat(s.state()).isEqualTo(StaleMounts.State.DEAD);
      assertThat(s.message()).contains("dead FUSE mount").contains("fusermount -u -z");
      Sh.sh(s.clearCommand()).ok();
    } finally {
      if (child != null) {
        child.destroyForcibly();
      }
      TestMounts.cleanup(null, mp);
    }
  }

  @Test
  void sigtermRunsTheShutdownHookWhichUnmounts() throws Exception {
    Path mp = TestMounts.newMountpoint("sigterm");
    Process child = null;
    try {
      child = startChild(mp);
      assertThat(TestMounts.isMountPoint(mp)).isTrue();
      Files.writeString(mp.resolve("f.txt"), "x");
      child.destroy(); // SIGTERM
      assertThat(child.waitFor(Slowdown.scaledMillis(15_000), TimeUnit.MILLISECONDS)).isTrue();
      assertThat(TestMounts.isMountPoint(mp)).as("unmounted by the shutdown hook").isFalse();
      assertThat(StaleMounts.check(mp).state()).isEqualTo(StaleMounts.State.NOT_MOUNTED);
    } finally {
      if (child != null) {
        child.destroyForcibly();
      }
      TestMounts.cleanup(null, mp);
    }
  }

  /** Starts {@link MountMain} in a child JVM with this JVM's class path and waits for "MOUNTED". */
  private static Process startChild(Path mp) throws Exception {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
        "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
        MountMain.class.getName(), mp.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    StringBuilder seen = new StringBuilder();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Slowdown.scaledMillis(20_000));
    String line;
    while (System.nanoTime() < deadline && (line = r.readLine()) != null) {
      seen.append(line).append('\n');
      if (line.startsWith("MOUNTED")) {
        return p;
      }
    }
    p.destroyForcibly();
    throw new AssertionError("child did not mount:\n" + seen);
  }
}
