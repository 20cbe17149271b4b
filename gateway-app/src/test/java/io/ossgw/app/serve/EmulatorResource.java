package io.ossgw.app.serve;

import io.ossgw.emulator.OssEmulator;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** An in-memory emulator (auth on) for @QuarkusTests, and the ossgw.* properties that point a mount at it. */
public class EmulatorResource implements QuarkusTestResourceLifecycleManager {
  static final String BUCKET = "health-bkt";
  static final String AK = "test-ak";
  static final String SK = "test-secret";
  static volatile OssEmulator emulator;
  private Path dir;

  @Override
  public Map<String, String> start() {
    try {
      dir = Files.createTempDirectory("ossgw-app-test-");
      Files.createDirectories(dir.resolve("mnt"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    emulator = OssEmulator.builder().bind("127.0.0.1").port(0).dataDir(null).bucket(BUCKET).credentials(AK, SK)
        .authEnabled(true).build().start();
    return Map.of(
        "ossgw.oss.endpoint", emulator.endpoint(),
        "ossgw.oss.access-key-id", AK,
        "ossgw.oss.access-key-secret", SK,
        "ossgw.mounts.t.bucket", BUCKET,
        "ossgw.mounts.t.mountpoint", dir.resolve("mnt").toString(),
        "ossgw.mounts.t.options.stat_cache_expire", "60",
        "ossgw.state-dir", dir.resolve("state").toString(),
        "ossgw.health.oss-check-interval", "1s");
  }

  @Override
  public void stop() {
    if (emulator != null) {
      emulator.close();
    }
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a temp directory
    }
  }
}
