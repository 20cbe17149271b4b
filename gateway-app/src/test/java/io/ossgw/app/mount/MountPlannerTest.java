package io.ossgw.app.mount;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.config.MountOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credential sources, option validation and mount point checks of {@code ossgw mount}, before any network I/O. */
class MountPlannerTest {
  @TempDir
  Path dir;

  private Path passwd(String content, String perms) throws IOException {
    Path p = dir.resolve("passwd-" + perms);
    Files.writeString(p, content);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    return p;
  }

  private MountPlan plan(String source, Map<String, String> env, String... opts) {
    return MountPlanner.plan(MountSource.parse(source), dir, MountOptions.parse(List.of(opts)), env, false, false,
        dir.resolve("state"));
  }

  @Test
  void passwdFileReadableByOthersIsRefused() throws IOException {
    Path p = passwd("AK:SK-SECRET\n", "rw-r--r--");
    assertThatThrownBy(() -> plan("bkt", Map.of(), "passwd_file=" + p))
        .hasMessageContaining("accessible by others").hasMessageContaining("chmod 600")
        .hasMessageNotContaining("SK-SECRET");
  }

  @Test
  void bucketSpecificLineWinsOverTheBarePair() throws IOException {
    Path p = passwd("# comment\nBARE:bare-secret\nother:OAK:osecret\nbkt:BAK:bsecret\n", "rw-------");
    assertThat(plan("bkt", Map.of(), "passwd_file=" + p).engine().credentials().accessKeyId()).isEqualTo("BAK");
    assertThat(plan("zzz", Map.of(), "passwd_file=" + p).engine().credentials().accessKeyId()).isEqualTo("BARE");
  }

  @Test
  void passwdFileWinsOverTheEnvironment() throws IOException {
    Path p = passwd("FILEAK:filesecret\n", "rw-------");
    var env = Map.of("OSS_ACCESS_KEY_ID", "ENVAK", "OSS_ACCESS_KEY_SECRET", "envsecret");
    assertThat(plan("bkt", env, "passwd_file=" + p).engine().credentials().accessKeyId()).isEqualTo("FILEAK");
    assertThat(plan("bkt", env).engine().credentials().accessKeyId()).isEqualTo("ENVAK");
  }

  @Test
  void missingCredentialsAndMissingFilesAreExplained() {
    assertThatThrownBy(() -> plan("bkt", Map.of(), "passwd_file=" + dir.resolve("nope")))
        .hasMessageContaining("does not exist");
    // no env and (normally) no ~/.passwd-ossfs: only assert the message when nothing is found
    if (!Files.exists(StateDirs.home().resolve(".passwd-ossfs")) && !Files.exists(Path.of("/etc/passwd-ossfs"))) {
      assertThatThrownBy(() -> plan("bkt", Map.of())).hasMessageContaining("no OSS credentials")
          .hasMessageContaining("OSS_ACCESS_KEY_ID");
    }
  }

  @Test
  void secretsNeverShowInPlans() {
    var env = Map.of("OSS_ACCESS_KEY_ID", "ENVAK", "OSS_ACCESS_KEY_SECRET", "top-secret-value");
    MountPlan p = plan("bkt:/sub", env, "url=http://127.0.0.1:9", "stat_cache_expire=30", "allow_other");
    assertThat(p.toString()).doesNotContain("top-secret-value");
    assertThat(p.engine().prefix()).isEqualTo("sub/");
    assertThat(p.engine().endpoint()).isEqualTo("http://127.0.0.1:9");
    assertThat(p.fuse().allowOther()).isTrue();
    assertThat(p.fuse().attrTimeout()).isEqualTo(30);
  }

  @Test
  void badOptionsAreRefusedByName() {
    var env = Map.of("OSS_ACCESS_KEY_ID", "a", "OSS_ACCESS_KEY_SECRET", "b");
    assertThatThrownBy(() -> plan("bkt", env, "multipart_size=1")).hasMessageContaining("'multipart_size'");
    assertThatThrownBy(() -> MountOptions.parse(List.of("bogus=1"))).hasMessageContaining("'bogus'");
  }

  @Test
  void mountpointMustBeAnExistingDirectory() throws IOException {
    var opts = MountOptions.empty();
    var env = Map.of("OSS_ACCESS_KEY_ID", "a", "OSS_ACCESS_KEY_SECRET", "b");
    assertThatThrownBy(() -> MountPlanner.plan(MountSource.parse("bkt"), dir.resolve("missing"), opts, env, false,
        false, dir)).hasMessageContaining("does not exist").hasMessageContaining("mkdir -p");
    Path file = Files.writeString(dir.resolve("file"), "x");
    assertThatThrownBy(() -> MountPlanner.plan(MountSource.parse("bkt"), file, opts, env, false, false, dir))
        .hasMessageContaining("not a directory");
  }
}
