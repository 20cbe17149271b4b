package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ossgw serve BUCKET --smb --smb-user NAME:FILE ...} becomes ossgw.shares.* and ossgw.smb.* properties. */
class QuickServeSmbTest {
  @Test
  void aShareNamedAfterTheBucketWithItsUsers() {
    var props = QuickServe.properties(List.of("data:/a/b", "--smb", "--smb-port", "14450", "--smb-bind=127.0.0.1",
        "--smb-user", "alice:/run/secrets/alice", "--smb-user=bob:rel/bob.pw", "--nfs"));
    assertThat(props).containsEntry("ossgw.shares.data.bucket", "data")
        .containsEntry("ossgw.shares.data.prefix", "/a/b/")
        .containsEntry("ossgw.smb.port", "14450")
        .containsEntry("ossgw.smb.bind", "127.0.0.1")
        .containsEntry("ossgw.smb.users.alice.password-file", "/run/secrets/alice")
        .containsEntry("ossgw.smb.users.bob.password-file", Path.of("rel/bob.pw").toAbsolutePath().toString())
        .containsEntry("ossgw.exports.data.bucket", "data"); // combinable with --nfs
  }

  @Test
  void smbMistakesAreNamed() {
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--smb", "--smb-user", "alice")))
        .hasMessageContaining("--smb-user takes NAME:PASSWORD_FILE");
    assertThatThrownBy(() -> QuickServe.properties(List.of("bkt", "--nfs", "--smb-user", "alice:/pw")))
        .hasMessageContaining("go with --smb");
    assertThatThrownBy(() -> QuickServe.properties(List.of("--smb")))
        .hasMessageContaining("need BUCKET[:/PREFIX]");
  }
}
