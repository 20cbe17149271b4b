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
