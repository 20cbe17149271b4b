package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two mounts in one JVM unmount without libfuse's {@code fuse: fuse_remove_signal_handlers: unknown session} (printed
 * by {@code fuse_main}'s teardown when another mount's {@code fuse_main} took the process-wide signal session).
 */
class SignalSessionTest {
  @Test
  void twoMountsInOneProcessUnmountWithoutLibfuseComplaints() throws Exception {
    Path a = TestMounts.newMountpoint("sig-a");
    Path b = TestMounts.newMountpoint("sig-b");
    try {
      String java = ProcessHandle.current().info().command()
          .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      Process p = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
          "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
          TwoMountsMain.class.getName(), a.toString(), b.toString())).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(Slowdown.scaledMillis(60_000), TimeUnit.MILLISECONDS)).isTrue();
      assertThat(p.exitValue()).as(out).isZero();
      assertThat(out).contains("READ ab").contains("DONE").doesNotContain("fuse:");
      assertThat(TestMounts.isMountPoint(a) || TestMounts.isMountPoint(b)).isFalse();
    } finally {
      TestMounts.cleanup(null, a);
      TestMounts.cleanup(null, b);
    }
  }
}
