package io.ossgw.app.smb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.SharesConfig;
import io.ossgw.app.config.SmbConfig;
import io.ossgw.app.serve.ConfigException;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ossgw.smb.* and ossgw.shares.*: defaults, and every mistake reported at once with the property that has it. */
class SmbPlannerTest {
  @TempDir
  Path tmp;

  static SmallRyeConfig config(Map<String, String> props) {
    return new SmallRyeConfigBuilder()
        .withMapping(SmbConfig.class)
        .withMapping(SharesConfig.class)
        .withConverter(Duration.class, 100, new DurationConverter())
        .withSources(new PropertiesConfigSource(props, "test", 100))
        .build();
  }

  SmbPlanner.Plan plan(Map<String, String> props) {
    SmallRyeConfig c = config(props);
    return SmbPlanner.plan(c.getConfigMapping(SmbConfig.class), c.getConfigMapping(SharesConfig.class), tmp);
  }

  @Test
  void defaultsAndEveryUserOnAShareWithoutValidUsers() throws Exception {
    SambaInstalled.require("smbd");
    Path pw = tmp.resolve("alice.pw");
    Files.writeString(pw, "s3cret pass\n");
    SmbPlanner.Plan p = plan(Map.of(
        "ossgw.smb.users.alice.password-file", pw.toString(),
        "ossgw.smb.users.bob.password", "b0b",
        "ossgw.shares.data.bucket", "my-bucket",
        "ossgw.shares.data.prefix", "/projects/x",
        "ossgw.shares.data.options.stat_cache_expire", "30",
        "ossgw.shares.arch.bucket", "archive",
        "ossgw.shares.arch.read-only", "true",
        "ossgw.shares.arch.valid-users", "bob"));
    SmbSettings s = p.settings();
    assertThat(s.bind()).isEqualTo("0.0.0.0");
    assertThat(s.port()).isEqualTo(445);
    assertThat(s.smbd()).endsWith(Path.of("smbd"));
    assertThat(s.stopTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.stateDir()).isEqualTo(tmp.toAbsolutePath().resolve("smb"));
    // the trailing newline of the file is not part of the password, the inner space is
    assertThat(s.users()).extracting(SmbUser::password).containsExactly("s3cret pass", "b0b");
    assertThat(p.shares()).hasSize(2);
    SmbPlanner.PlannedShare arch = p.shares().get(0);
    SmbPlanner.PlannedShare data = p.shares().get(1);
    assertThat(arch.name()).isEqualTo("arch");
    assertThat(arch.readOnly()).isTrue();
    assertThat(arch.validUsers()).containsExactly("bob");
    assertThat(data.source().bucket()).isEqualTo("my-bucket");
    assertThat(data.source().prefix()).isEqualTo("projects/x/");
    assertThat(data.validUsers()).containsExactly("alice", "bob");
    assertThat(data.guest()).isFalse();
    assertThat(data.options()).containsEntry("stat_cache_expire", "30");
    assertThat(s.users().toString()).doesNotContain("b0b");
  }

  @Test
  void everyMistakeIsReportedWithItsProperty() throws Exception {
    Path empty = tmp.resolve("empty.pw");
    Files.writeString(empty, "\n");
    Map<String, String> props = new HashMap<>(Map.of(
        "ossgw.smb.port", "0",
        "ossgw.smb.users.Alice.password", "x",
        "ossgw.smb.users.bob.password", "x",
        "ossgw.smb.users.bob.password-file", empty.toString(),
        "ossgw.smb.users.carol.password-file", empty.toString(),
        "ossgw.smb.users.dave.password-file", tmp.resolve("missing").toString(),
        "ossgw.shares.ipc$.bucket", "b-one",
        "ossgw.shares.data.bucket", "b-one",
        "ossgw.shares.DATA.bucket", "b-two",
        "ossgw.shares.pub.bucket", "b-one"));
    props.putAll(Map.of(
        "ossgw.shares.pub.guest", "true",
        "ossgw.shares.pub.valid-users", "erin",
        "ossgw.shares.bad.bucket", "No_Such"));
    assertThatThrownBy(() -> plan(props)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problems())
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.smb.port must be 1..65535"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.smb.users.Alice: 'Alice' is not a valid user name"))
        .anySatisfy(m -> assertThat(m).isEqualTo("ossgw.smb.users.bob: set exactly one of password-file and password"))
        .anySatisfy(m -> assertThat(m).isEqualTo("ossgw.smb.users.carol: the password is empty"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.smb.users.dave: cannot read password-file"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.shares.ipc$: 'ipc$' is not a valid share name"))
        .anySatisfy(m -> assertThat(m).contains("'data' clashes with 'DATA'"))
        .anySatisfy(m -> assertThat(m).isEqualTo("ossgw.shares.pub.valid-users: 'erin' is not configured "
            + "(ossgw.smb.users.erin.password-file)"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.shares.pub: a guest share is open to everybody"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.shares.bad: invalid bucket name"))
        .anySatisfy(m -> assertThat(m).startsWith("ossgw.shares.DATA: no SMB user can use it")));
  }

  @Test
  void aGuestShareNeedsNoUsers() {
    SambaInstalled.require("smbd");
    SmbPlanner.Plan p = plan(Map.of("ossgw.shares.pub.bucket", "pub-bucket", "ossgw.shares.pub.guest", "true",
        "ossgw.smb.bind", "127.0.0.1", "ossgw.smb.port", "14450"));
    assertThat(p.shares()).singleElement().satisfies(s -> {
      assertThat(s.guest()).isTrue();
      assertThat(s.validUsers()).isEmpty();
    });
    assertThat(p.settings().probeAddress()).isEqualTo("127.0.0.1");
  }

  @Test
  void aMissingSmbdNamesThePackage() {
    assertThatThrownBy(() -> plan(Map.of("ossgw.shares.pub.bucket", "pub-bucket", "ossgw.shares.pub.guest", "true",
        "ossgw.smb.smbd", "/nonexistent/smbd")))
        .isInstanceOf(SmbException.class)
        .hasMessageContaining("Samba's /nonexistent/smbd, which was not found")
        .hasMessageContaining("apt-get install samba");
  }

  @Test
  void sharesOfTheSameBucketListedInNameOrder() {
    SambaInstalled.require("smbd");
    SmbPlanner.Plan p = plan(Map.of("ossgw.smb.users.u1.password", "p", "ossgw.shares.b.bucket", "bkt-a",
        "ossgw.shares.a.bucket", "bkt-a"));
    assertThat(p.shares()).extracting(SmbPlanner.PlannedShare::name).isEqualTo(List.of("a", "b"));
  }
}
