package io.ossgw.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ConfigMappingTestAccess;
import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.MountsConfig;
import io.ossgw.app.config.OssConfig;
import io.smallrye.config.SmallRyeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** serve's start-up validation: every problem reported at once, each naming its property. */
class ServePlannerTest {
  @TempDir
  Path dir;

  private List<ServePlanner.Planned> plan(Map<String, String> props, String emulatorEndpoint, Map<String, String> env) {
    SmallRyeConfig c = ConfigMappingTestAccess.config(props);
    return ServePlanner.plan(c.getConfigMapping(OssConfig.class), c.getConfigMapping(MountsConfig.class),
        c.getConfigMapping(DefaultOptionsConfig.class), dir.resolve("state"), emulatorEndpoint, env);
  }

  private Map<String, String> mount(String name, String bucket) throws Exception {
    Path mp = Files.createDirectories(dir.resolve("mnt-" + name));
    Map<String, String> m = new HashMap<>();
    m.put("ossgw.mounts." + name + ".bucket", bucket);
    m.put("ossgw.mounts." + name + ".mountpoint", mp.toString());
    return m;
  }

  @Test
  void endpointRegionSignatureAndDefaultsFlowIntoEveryMount() throws Exception {
    Map<String, String> p = mount("data", "bkt");
    p.putAll(mount("logs", "logs-bkt"));
    p.put("ossgw.oss.endpoint", "http://127.0.0.1:9");
    p.put("ossgw.oss.region", "cn-beijing");
    p.put("ossgw.oss.signature", "V1");
    p.put("ossgw.oss.access-key-id", "AK");
    p.put("ossgw.oss.access-key-secret", "SK");
    p.put("ossgw.options.stat_cache_expire", "120");
    p.put("ossgw.mounts.data.options.stat_cache_expire", "30");
    p.put("ossgw.mounts.data.prefix", "/a/b");
    p.put("ossgw.mounts.data.options.allow_other", "true");
    p.put("ossgw.mounts.logs.options.allow_other", "false");
    var plans = plan(p, null, Map.of());
    assertThat(plans).extracting(ServePlanner.Planned::name).containsExactly("data", "logs");
    var data = plans.get(0).plan();
    assertThat(data.engine().endpoint()).isEqualTo("http://127.0.0.1:9");
    assertThat(data.engine().region()).isEqualTo("cn-beijing");
    assertThat(data.engine().signatureV4()).isFalse();
    assertThat(data.engine().prefix()).isEqualTo("a/b/");
    assertThat(data.engine().statCacheExpire().toSeconds()).isEqualTo(30);
    assertThat(data.engine().credentials().accessKeyId()).isEqualTo("AK");
    assertThat(data.fuse().allowOther()).isTrue();
    var logs = plans.get(1).plan();
    assertThat(logs.engine().statCacheExpire().toSeconds()).isEqualTo(120);
    assertThat(logs.fuse().allowOther()).isFalse();
  }

  @Test
  void theEmbeddedEmulatorNeedsNoCredentials() throws Exception {
    var plans = plan(mount("d", "demo"), "http://127.0.0.1:5555", Map.of());
    assertThat(plans.getFirst().plan().engine().endpoint()).isEqualTo("http://127.0.0.1:5555");
    assertThat(plans.getFirst().plan().engine().credentials()).isEqualTo(ServePlanner.EMULATOR_CREDENTIALS);
  }

  @Test
  void credentialsFromPasswdFileAndEnvironment() throws Exception {
    Path pw = dir.resolve("pw");
    Files.writeString(pw, "bkt:FILEAK:secret\n");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    Map<String, String> p = mount("a", "bkt");
    p.put("ossgw.oss.endpoint", "http://127.0.0.1:9");
    p.put("ossgw.oss.passwd-file", pw.toString());
    assertThat(plan(p, null, Map.of()).getFirst().plan().engine().credentials().accessKeyId()).isEqualTo("FILEAK");
    p.remove("ossgw.oss.passwd-file");
    var env = Map.of("OSS_ACCESS_KEY_ID", "ENVAK", "OSS_ACCESS_KEY_SECRET", "s");
    assertThat(plan(p, null, env).getFirst().plan().engine().credentials().accessKeyId()).isEqualTo("ENVAK");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-r--r--"));
    p.put("ossgw.oss.passwd-file", pw.toString());
    assertThatThrownBy(() -> plan(p, null, Map.of())).hasMessageContaining("accessible by others");
  }

  @Test
  void everyProblemIsReportedWithItsProperty() throws Exception {
    Map<String, String> p = mount("a", "bkt");
    p.putAll(mount("b", "Bad_Bucket"));
    p.putAll(mount("c", "bkt2"));
    p.putAll(mount("d", "bkt3"));
    p.putAll(mount("e", "bkt4"));
    p.put("ossgw.oss.endpoint", "http://127.0.0.1:9");
    p.put("ossgw.oss.access-key-id", "AK");
    p.put("ossgw.mounts.a.options.multipart_size", "1");
    p.put("ossgw.mounts.c.options.no_such_option", "1");
    p.put("ossgw.mounts.d.mountpoint", dir.resolve("mnt-e").toString());
    assertThatThrownBy(() -> plan(p, null, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("ossgw.oss.access-key-id and ossgw.oss.access-key-secret must be set together")
        .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSizeGreaterThanOrEqualTo(4));
    p.put("ossgw.oss.access-key-secret", "SK");
    assertThatThrownBy(() -> plan(p, null, Map.of()))
        .hasMessageContaining("ossgw.mounts.a: option 'multipart_size' must be at least 5")
        .hasMessageContaining("ossgw.mounts.b: invalid bucket name 'Bad_Bucket'")
        .hasMessageContaining("ossgw.mounts.c: options: unknown option 'no_such_option'")
        .hasMessageContaining("ossgw.mounts.e.mountpoint").hasMessageContaining("also the mount point of ossgw.mounts.d")
        .hasMessageNotContaining("SK\n");
  }

  @Test
  void mountsSharingAnEngineMustAgreeOnItsOptions() throws Exception {
    Map<String, String> p = mount("a", "bkt");
    p.putAll(mount("b", "bkt"));
    p.put("ossgw.mounts.a.options.stat_cache_expire", "10");
    assertThatThrownBy(() -> plan(p, "http://127.0.0.1:5", Map.of())).hasMessageContaining("share bucket bkt");
    p.put("ossgw.mounts.b.options.stat_cache_expire", "10");
    assertThat(plan(p, "http://127.0.0.1:5", Map.of())).hasSize(2);
  }
}
