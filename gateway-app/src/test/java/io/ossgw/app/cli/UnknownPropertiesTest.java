package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigValidationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Unknown {@code ossgw.*} properties: SmallRye Config refuses them before logging exists, and {@code ossgw serve} used
 * to exit 1 printing nothing; the hint names each key and its nearest known one (issue 23 item 5). The e2e test
 * test_cluster.py runs the real launcher with one in OSSGW_JAVA_OPTS.
 */
class UnknownPropertiesTest {
  static ConfigValidationException refused(String... keys) {
    return new ConfigValidationException(Stream.of(keys).map(k -> new ConfigValidationException.Problem(
        "SRCFG00050: " + k + " in SysPropConfigSource does not map to any root")).toArray(
            ConfigValidationException.Problem[]::new));
  }

  @Test
  void eachUnknownKeyIsNamedWithItsNearestKnownOne() {
    var failure = new RuntimeException("Failed to start application", refused("ossgw.clustr.store",
        "ossgw.cluster.lease-time", "ossgw.exports.data.bukcet", "ossgw.nfs.v4.grace"));
    String hint = OssgwMain.startupHint(failure);
    assertThat(hint).isNotNull();
    assertThat(hint.split("\n")).containsExactly(
        "unknown property ossgw.clustr.store (in SysPropConfigSource); did you mean 'ossgw.cluster.store'? README.md "
            + "\"Configuration\" lists every ossgw.* key",
        "ossgw: unknown property ossgw.cluster.lease-time (in SysPropConfigSource); did you mean "
            + "'ossgw.cluster.lease-ttl'? README.md \"Configuration\" lists every ossgw.* key",
        "ossgw: unknown property ossgw.exports.data.bukcet (in SysPropConfigSource); did you mean "
            + "'ossgw.exports.data.bucket'? README.md \"Configuration\" lists every ossgw.* key",
        "ossgw: unknown property ossgw.nfs.v4.grace (in SysPropConfigSource); did you mean "
            + "'ossgw.nfs.v4.grace-time'? README.md \"Configuration\" lists every ossgw.* key");
  }

  @Test
  void aKeyFarFromEveryOtherListsItsSection() {
    assertThat(UnknownProperties.nearest("ossgw.cluster.zzzzzzzzzzzzzzz")).hasSize(3)
        .allSatisfy(k -> assertThat(k).startsWith("ossgw.cluster."));
    assertThat(UnknownProperties.nearest("ossgw.zzzzzzzzzzz")).isEmpty();
  }

  @Test
  void theKnownKeysComeFromEveryMapping() throws IOException {
    List<String> keys = UnknownProperties.knownKeys();
    assertThat(keys).contains("ossgw.state-dir", "ossgw.health.oss-check-interval", "ossgw.cluster.store",
        "ossgw.cluster.mode", "ossgw.cluster.password-file", "ossgw.exports.*.bucket", "ossgw.options.*",
        "ossgw.smb.users.*.password-file", "ossgw.nfs.v4.lease-time", "ossgw.mounts.*.mountpoint");
    // every @ConfigMapping of the config package is in MAPPINGS
    try (Stream<Path> files = Files.list(Path.of("src/main/java/io/ossgw/app/config"))) {
      List<String> mapped = files.filter(f -> {
        try {
          return Files.readString(f).contains("@ConfigMapping(prefix = \"ossgw");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).map(f -> f.getFileName().toString().replace(".java", "")).sorted().toList();
      assertThat(UnknownProperties.MAPPINGS.stream().map(Class::getSimpleName).sorted().toList()).isEqualTo(mapped);
    }
    assertThat(UnknownProperties.MAPPINGS).allSatisfy(c -> assertThat(c.getAnnotation(ConfigMapping.class)).isNotNull());
  }

  @Test
  void otherConfigFailuresGetNoUnknownPropertyHint() {
    assertThat(UnknownProperties.hint(new ConfigValidationException(new ConfigValidationException.Problem[] {
        new ConfigValidationException.Problem("SRCFG00014: The config property ossgw.oss.endpoint is required")})))
        .isNull();
  }
}
