package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LaunchSettingsTest {
  @TempDir
  Path dir;

  @AfterEach
  void clear() {
    System.clearProperty(LaunchSettings.HOST_ENABLED);
    System.clearProperty(LaunchSettings.CONFIG_FILE);
    for (String k : new String[] {"ossgw.nfs.bind", "quarkus.http.host", "ossgw.exports.bkt.bucket"}) {
      System.clearProperty(k);
    }
  }

  @Test
  void theQuickFormsLoopbackDefaultsGiveWayToAnExplicitSetting() {
    assertThat(LaunchSettings.apply(new String[] {"serve", "bkt", "--nfs"})).isNull();
    assertThat(System.getProperty("ossgw.nfs.bind")).isEqualTo("127.0.0.1");
    assertThat(System.getProperty("quarkus.http.host")).isEqualTo("127.0.0.1");
    clear();
    System.setProperty("ossgw.nfs.bind", "10.0.0.5"); // -Dossgw.nfs.bind=...
    assertThat(LaunchSettings.apply(new String[] {"serve", "bkt", "--nfs", "--http-bind", "0.0.0.0"})).isNull();
    assertThat(System.getProperty("ossgw.nfs.bind")).isEqualTo("10.0.0.5");
    assertThat(System.getProperty("quarkus.http.host")).isEqualTo("0.0.0.0");
    assertThat(LaunchSettings.envName("ossgw.nfs.bind")).isEqualTo("OSSGW_NFS_BIND");
    assertThat(LaunchSettings.envName("quarkus.http.host")).isEqualTo("QUARKUS_HTTP_HOST");
  }

  @Test
  void onlyServeListensOnHttp() {
    LaunchSettings.apply(new String[] {"mount", "b", "/mnt"});
    assertThat(System.getProperty(LaunchSettings.HOST_ENABLED)).isEqualTo("false");
    clear();
    LaunchSettings.apply(new String[] {"--help"});
    assertThat(System.getProperty(LaunchSettings.HOST_ENABLED)).isEqualTo("false");
    clear();
    LaunchSettings.apply(new String[] {"serve"});
    assertThat(System.getProperty(LaunchSettings.HOST_ENABLED)).isNull();
  }

  @Test
  void serveConfigFileBecomesTheConfigFileSource() throws Exception {
    Path f = Files.writeString(dir.resolve("ossgw.properties"), "quarkus.http.port=1234\n");
    assertThat(LaunchSettings.apply(new String[] {"serve", "--config", f.toString()})).isNull();
    assertThat(System.getProperty(LaunchSettings.CONFIG_FILE)).isEqualTo(f.toString());
    clear();
    assertThat(LaunchSettings.apply(new String[] {"serve", "--config=" + dir.resolve("missing")}))
        .contains("does not exist");
  }
}
