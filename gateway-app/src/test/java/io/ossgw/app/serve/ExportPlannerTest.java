package io.ossgw.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ConfigMappingTestAccess;
import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.ExportsConfig;
import io.ossgw.app.config.MountsConfig;
import io.ossgw.app.config.NfsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.nfs.export.Squash;
import io.smallrye.config.SmallRyeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** serve's NFS export planning: defaults, exports(5) settings, shared engines, every problem at once. */
class ExportPlannerTest {
  @TempDir
  Path dir;

  private List<ExportPlanner.PlannedExport> plan(Map<String, String> props) {
    SmallRyeConfig c = ConfigMappingTestAccess.config(props);
    List<ServePlanner.Planned> mounts = ServePlanner.plan(c.getConfigMapping(OssConfig.class),
        c.getConfigMapping(MountsConfig.class), c.getConfigMapping(DefaultOptionsConfig.class), dir, null, Map.of());
    return ExportPlanner.plan(c.getConfigMapping(OssConfig.class), c.getConfigMapping(ExportsConfig.class),
        c.getConfigMapping(DefaultOptionsConfig.class), dir, null, Map.of(), mounts);
  }

  private static Map<String, String> base() {
    Map<String, String> p = new HashMap<>();
    p.put("ossgw.oss.endpoint", "http://127.0.0.1:9");
    p.put("ossgw.oss.access-key-id", "AK");
    p.put("ossgw.oss.access-key-secret", "SK");
    return p;
  }

  @Test
  void defaultsAreThoseOfExports5AndThePathFollowsBucketAndPrefix() {
    Map<String, String> p = base();
    p.put("ossgw.exports.a.bucket", "bkt");
    p.put("ossgw.exports.b.bucket", "bkt");
    p.put("ossgw.exports.b.prefix", "/x/y");
    p.put("ossgw.exports.b.read-only", "true");
    p.put("ossgw.exports.b.clients", "10.0.0.0/8, 192.168.1.7");
    p.put("ossgw.exports.b.squash", "all");
    p.put("ossgw.exports.b.anon-uid", "1000");
    p.put("ossgw.exports.b.options.stat_cache_expire", "30");
    var plans = plan(p);
    assertThat(plans).extracting(ExportPlanner.PlannedExport::path).containsExactly("/bkt", "/bkt/x/y");
    var a = plans.get(0);
    assertThat(a.settings().readOnly()).isFalse();
    assertThat(a.settings().clients()).containsExactly("*");
    assertThat(a.squash()).isEqualTo(Squash.ROOT_SQUASH);
    assertThat(a.settings().anonUid()).isEqualTo(65534);
    assertThat(a.engine().statCacheExpire().toSeconds()).isEqualTo(900);
    var b = plans.get(1);
    assertThat(b.engine().prefix()).isEqualTo("x/y/");
    assertThat(b.settings().readOnly()).isTrue();
    assertThat(b.settings().clients()).map(String::strip).containsExactly("10.0.0.0/8", "192.168.1.7");
    assertThat(b.squash()).isEqualTo(Squash.ALL_SQUASH);
    assertThat(b.settings().anonUid()).isEqualTo(1000);
    assertThat(b.engine().statCacheExpire().toSeconds()).isEqualTo(30);
  }

  @Test
  void nfsServerDefaults() {
    NfsConfig nfs = ConfigMappingTestAccess.config(Map.of()).getConfigMapping(NfsConfig.class);
    assertThat(nfs.port()).isEqualTo(2049);
    assertThat(nfs.bind()).isEqualTo("0.0.0.0");
    assertThat(nfs.rpcbind()).isFalse();
    assertThat(nfs.openIdleTimeout().toSeconds()).isEqualTo(5);
  }

  @Test
  void everyProblemIsReportedByProperty() throws Exception {
    Map<String, String> p = base();
    p.put("ossgw.exports.bad-bucket.bucket", "Not_A_Bucket");
    p.put("ossgw.exports.bad-cidr.bucket", "bkt");
    p.put("ossgw.exports.bad-cidr.clients", "10.0.0.0/33");
    p.put("ossgw.exports.bad-path.bucket", "bkt");
    p.put("ossgw.exports.bad-path.path", "relative/path");
    p.put("ossgw.exports.dup.bucket", "bkt"); // path /bkt, like "one"
    p.put("ossgw.exports.one.bucket", "bkt");
    p.put("ossgw.exports.unknown-option.bucket", "other");
    p.put("ossgw.exports.unknown-option.options.no_such_option", "1");
    assertThatThrownBy(() -> plan(p)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("ossgw.exports.bad-bucket: invalid bucket name 'Not_A_Bucket'")
        .hasMessageContaining("ossgw.exports.bad-cidr:")
        .hasMessageContaining("ossgw.exports.bad-path: export path must be absolute (e.g. /bucket): relative/path")
        .hasMessageContaining("ossgw.exports.one.path: /bkt is also the path of ossgw.exports.dup")
        .hasMessageContaining("ossgw.exports.unknown-option: options: unknown option 'no_such_option'");
  }

  @Test
  void aMountAndAnExportOfTheSameBucketMustAgreeOnEngineOptions() throws Exception {
    Map<String, String> p = base();
    Path mp = Files.createDirectories(dir.resolve("mnt"));
    p.put("ossgw.mounts.m.bucket", "bkt");
    p.put("ossgw.mounts.m.mountpoint", mp.toString());
    p.put("ossgw.exports.e.bucket", "bkt");
    assertThat(plan(p)).hasSize(1); // same options: one shared engine
    p.put("ossgw.exports.e.options.stat_cache_expire", "5");
    assertThatThrownBy(() -> plan(p)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("ossgw.exports.e: shares bucket bkt (one engine) with ossgw.mounts.m");
  }
}
