package io.ossgw.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsResolverTest {
  @TempDir Path dir;

  private Path passwd(String content, String perms) throws Exception {
    Path p = dir.resolve("passwd");
    Files.writeString(p, content);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    return p;
  }

  @Test
  void bucketLineWinsOverBarePair() throws Exception {
    Path p = passwd("# comment\nAK0:SK0\nother:AK1:SK1\nb:AK2:SK2\n", "rw-------");
    Credentials c = CredentialsResolver.resolve("b", p, Map.of(), dir).orElseThrow();
    assertThat(c.accessKeyId()).isEqualTo("AK2");
    assertThat(CredentialsResolver.resolve("zzz", p, Map.of(), dir).orElseThrow().accessKeyId()).isEqualTo("AK0");
  }

  @Test
  void worldReadableFileIsRefused() throws Exception {
    Path p = passwd("AK:SK\n", "rw-r--r--");
    assertThatThrownBy(() -> CredentialsResolver.resolve("b", p, Map.of(), dir))
        .hasMessageContaining("accessible by others").hasMessageContaining("chmod 600");
  }

  @Test
  void environmentIsUsedWithoutAFile() {
    Credentials c = CredentialsResolver.resolve("b", null, Map.of("OSS_ACCESS_KEY_ID", "E1", "OSS_ACCESS_KEY_SECRET", "E2"), dir)
        .orElseThrow();
    assertThat(c.accessKeyId()).isEqualTo("E1");
    assertThat(c.toString()).doesNotContain("E2");
    assertThat(CredentialsResolver.resolve("b", null, Map.of(), dir)).isEmpty();
  }

  @Test
  void homeFileIsTheFallback() throws Exception {
    Path home = dir.resolve("home");
    Files.createDirectories(home);
    Path p = home.resolve(".passwd-ossfs");
    Files.writeString(p, "H1:H2\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
    assertThat(CredentialsResolver.resolve("b", null, Map.of(), home).orElseThrow().accessKeyId()).isEqualTo("H1");
  }
}
