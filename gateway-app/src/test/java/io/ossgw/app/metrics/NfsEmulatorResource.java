package io.ossgw.app.metrics;

import io.ossgw.emulator.OssEmulator;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;

/**
 * An in-memory OSS emulator (auth on) and one NFS export of its bucket on a free port of 127.0.0.1, for
 * {@link MetricsWorkloadTest}. The emulator's own request counters are the reference the metrics are checked against.
 */
public class NfsEmulatorResource implements QuarkusTestResourceLifecycleManager {
  static final String BUCKET = "metrics-bkt";
  static final String AK = "m-ak";
  static final String SK = "m-sk";
  static volatile OssEmulator emulator;
  private Path dir;

  @Override
  public Map<String, String> start() {
    try {
      dir = Files.createTempDirectory("ossgw-metrics-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    emulator = OssEmulator.builder().bind("127.0.0.1").port(0).dataDir(null).bucket(BUCKET)
        .credentials(AK, SK).authEnabled(true).build().start();
    return Map.of(
        "ossgw.oss.endpoint", emulator.endpoint(),
        "ossgw.oss.access-key-id", AK,
        "ossgw.oss.access-key-secret", SK,
        "ossgw.state-dir", dir.resolve("state").toString(),
        "ossgw.options.tmpdir", dir.resolve("spool").toString(),
        "ossgw.nfs.bind", "127.0.0.1",
        "ossgw.nfs.port", "0",
        "ossgw.nfs.open-idle-timeout", "10m", // written files stay open (and spooled) for the whole test
        "ossgw.exports.m.bucket", BUCKET,
        "ossgw.exports.m.squash", "none");
  }

  @Override
  public void stop() {
    if (emulator != null) {
      emulator.close();
    }
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort: a temp directory
    }
  }
}
