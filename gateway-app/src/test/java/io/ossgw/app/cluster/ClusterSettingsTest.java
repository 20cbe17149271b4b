package io.ossgw.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ClusterConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ossgw.cluster.*} checked at start-up: every problem named with its key, the password never shown. */
class ClusterSettingsTest {
  @TempDir Path dir;

  record Cfg(Optional<String> store, ClusterConfig.Mode mode, String name, Optional<String> nodeId, Duration leaseTtl,
      Optional<Duration> renewInterval, Duration timeout, Optional<Path> passwordFile, Optional<String> password,
      Optional<Path> tlsCaFile) implements ClusterConfig {
    static Cfg of(String store) {
      return new Cfg(Optional.ofNullable(store), ClusterConfig.Mode.STANDBY, "default", Optional.empty(), Duration.ofSeconds(5),
          Optional.empty(), Duration.ofSeconds(2), Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  @Test
  void withoutAStoreThereIsNoCluster() {
    assertThat(ClusterSettings.from(Cfg.of(null), "h", 1)).isEmpty();
    assertThat(ClusterSettings.from(Cfg.of(" "), "h", 1)).isEmpty();
  }

  @Test
  void defaultsAndSchemes() {
    ClusterSettings s = ClusterSettings.from(Cfg.of("valkey://store.svc:6380/2"), "pod-0", 42).orElseThrow();
    assertThat(s.url()).isEqualTo("redis://store.svc:6380/2");
    assertThat(s.tls()).isFalse();
    assertThat(s.nodeId()).isEqualTo("pod-0-42");
    assertThat(s.renewInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.key("lease")).isEqualTo("ossgw:default:lease");
    assertThat(s.password()).isEmpty();
    ClusterSettings t = ClusterSettings.from(Cfg.of("valkeys://store.svc"), "h", 1).orElseThrow();
    assertThat(t.url()).isEqualTo("rediss://store.svc");
    assertThat(t.tls()).isTrue();
    assertThat(ClusterSettings.from(Cfg.of("rediss://u@store"), "h", 1).orElseThrow().displayUrl())
        .isEqualTo("rediss://store");
  }

  @Test
  void everyProblemIsNamedWithItsKey() {
    Cfg bad = new Cfg(Optional.of("http://x"), ClusterConfig.Mode.STANDBY, "no spaces", Optional.of("a b"),
        Duration.ofMillis(500), Optional.of(Duration.ofSeconds(1)), Duration.ofMinutes(2), Optional.empty(),
        Optional.empty(), Optional.empty());
    assertThatThrownBy(() -> ClusterSettings.from(bad, "h", 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ossgw.cluster.store must be a redis://, rediss://, valkey:// or valkeys:// URL")
        .hasMessageContaining("ossgw.cluster.name must be")
        .hasMessageContaining("ossgw.cluster.node-id must be")
        .hasMessageContaining("ossgw.cluster.lease-ttl must be from 1s to 5m")
        .hasMessageContaining("ossgw.cluster.renew-interval must be above 0 and below half")
        .hasMessageContaining("ossgw.cluster.timeout must be from 10ms to 1m");
  }

  @Test
  void aPasswordInTheUrlIsRefusedWithoutShowingIt() {
    assertThatThrownBy(() -> ClusterSettings.from(Cfg.of("redis://user:hunter2@store"), "h", 1))
        .hasMessageContaining("must not hold the password").message().doesNotContain("hunter2");
  }

  @Test
  void thePasswordFileMustBePrivateAndWinsOverTheEnvironment() throws Exception {
    Path pw = dir.resolve("pw");
    Files.writeString(pw, "from-file\nignored\n");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-r--r--"));
    Cfg c = new Cfg(Optional.of("redis://s"), ClusterConfig.Mode.ACTIVE, "c1", Optional.empty(),
        Duration.ofSeconds(5), Optional.empty(), Duration.ofSeconds(2), Optional.of(pw), Optional.of("from-env"),
        Optional.empty());
    assertThatThrownBy(() -> ClusterSettings.from(c, "h", 1)).hasMessageContaining("is readable by others");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    assertThat(ClusterSettings.from(c, "h", 1).orElseThrow().password()).contains("from-file");
    Cfg env = new Cfg(Optional.of("redis://s"), ClusterConfig.Mode.ACTIVE, "c1", Optional.empty(),
        Duration.ofSeconds(5), Optional.empty(), Duration.ofSeconds(2), Optional.empty(), Optional.of("from-env"),
        Optional.empty());
    ClusterSettings s = ClusterSettings.from(env, "h", 1).orElseThrow();
    assertThat(s.password()).contains("from-env");
    assertThat(s.toString()).doesNotContain("from-env");
  }
}
