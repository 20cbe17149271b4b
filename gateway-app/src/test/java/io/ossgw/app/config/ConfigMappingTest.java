package io.ossgw.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code ossgw.*} property names, their defaults and SmallRye's messages for wrong values. */
class ConfigMappingTest {
  static SmallRyeConfig config(Map<String, String> props) {
    return new SmallRyeConfigBuilder()
        .withMapping(OssConfig.class)
        .withMapping(MountsConfig.class)
        .withMapping(DefaultOptionsConfig.class)
        .withMapping(GatewayConfig.class)
        .withMapping(EmulatorConfig.class)
        .withMapping(NfsConfig.class)
        .withMapping(ExportsConfig.class)
        .withConverter(Duration.class, 100, new DurationConverter()) // Quarkus's "10s" syntax, as at run time
        .withSources(new PropertiesConfigSource(props, "test", 100))
        .build();
  }

  @Test
  void defaults() {
    SmallRyeConfig c = config(Map.of());
    OssConfig oss = c.getConfigMapping(OssConfig.class);
    assertThat(oss.endpoint()).isEmpty();
    assertThat(oss.region()).isEqualTo("cn-hangzhou");
    assertThat(oss.signature()).isEqualTo(OssConfig.Signature.V4);
    assertThat(oss.accessKeyId()).isEmpty();
    assertThat(c.getConfigMapping(MountsConfig.class).all()).isEmpty();
    assertThat(c.getConfigMapping(DefaultOptionsConfig.class).values()).isEmpty();
    GatewayConfig g = c.getConfigMapping(GatewayConfig.class);
    assertThat(g.stateDir()).isEmpty();
    assertThat(g.health().ossCheckInterval()).isEqualTo(Duration.ofSeconds(10));
    EmulatorConfig e = c.getConfigMapping(EmulatorConfig.class);
    assertThat(e.bucket()).isEqualTo("demo");
    assertThat(e.port()).isZero();
    assertThat(e.bind()).isEqualTo("127.0.0.1");
    assertThat(e.storage()).isEqualTo(EmulatorConfig.Storage.DIR);
  }

  @Test
  void mountsWithOssfsOptionNames() {
    SmallRyeConfig c = config(Map.of(
        "ossgw.oss.endpoint", "https://oss-cn-beijing.aliyuncs.com",
        "ossgw.oss.signature", "v1",
        "ossgw.mounts.data.bucket", "my-bucket",
        "ossgw.mounts.data.prefix", "/datasets",
        "ossgw.mounts.data.mountpoint", "/mnt/data",
        "ossgw.mounts.data.options.stat_cache_expire", "60",
        "ossgw.mounts.data.options.allow_other", "true",
        "ossgw.mounts.logs.bucket", "logs-bucket",
        "ossgw.mounts.logs.mountpoint", "/mnt/logs",
        "ossgw.options.multipart_size", "20"));
    OssConfig oss = c.getConfigMapping(OssConfig.class);
    assertThat(oss.endpoint()).contains("https://oss-cn-beijing.aliyuncs.com");
    assertThat(oss.signature()).isEqualTo(OssConfig.Signature.V1);
    var mounts = c.getConfigMapping(MountsConfig.class).all();
    assertThat(mounts).containsOnlyKeys("data", "logs");
    assertThat(mounts.get("data").bucket()).isEqualTo("my-bucket");
    assertThat(mounts.get("data").prefix()).contains("/datasets");
    assertThat(mounts.get("data").mountpoint()).isEqualTo(Path.of("/mnt/data"));
    assertThat(mounts.get("data").options()).containsEntry("stat_cache_expire", "60").containsEntry("allow_other", "true");
    assertThat(mounts.get("logs").prefix()).isEmpty();
    assertThat(mounts.get("logs").options()).isEmpty();
    assertThat(c.getConfigMapping(DefaultOptionsConfig.class).values()).containsEntry("multipart_size", "20");
  }

  @Test
  void wrongValuesAreRejectedWithThePropertyName() {
    assertThatThrownBy(() -> config(Map.of("ossgw.oss.signature", "V3")))
        .hasStackTraceContaining("ossgw.oss.signature");
    assertThatThrownBy(() -> config(Map.of("ossgw.health.oss-check-interval", "often")))
        .hasStackTraceContaining("ossgw.health.oss-check-interval");
    assertThatThrownBy(() -> config(Map.of("ossgw.mounts.x.bucket", "b")))
        .hasStackTraceContaining("ossgw.mounts.x.mountpoint");
    assertThatThrownBy(() -> config(Map.of("ossgw.emulator.port", "http")))
        .hasStackTraceContaining("ossgw.emulator.port");
  }
}
