package io.ossgw.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainTest;
import org.junit.jupiter.api.Test;

/** The picocli command tree as the packaged main runs it. */
@QuarkusMainTest
class CliMainTest {
  @Test
  @Launch({"--help"})
  void helpListsTheCommands(LaunchResult r) {
    assertThat(r.getOutput()).contains("mount").contains("umount").contains("serve").contains("demo")
        .contains("emulator");
  }

  @Test
  @Launch({"--help"})
  void helpNamesAllThreeProtocolsAsAvailable(LaunchResult r) {
    assertThat(r.getOutput()).contains("FUSE").contains("NFSv3").contains("SMB").doesNotContain("come later");
  }

  @Test
  @Launch({"serve", "--help"})
  void serveHelpSaysItServesSmb(LaunchResult r) {
    assertThat(r.getOutput()).contains("SMB shares (ossgw.shares.*").contains("NFS exports");
  }

  @Test
  @Launch({"mount", "--list-options"})
  void listOptions(LaunchResult r) {
    assertThat(r.getOutput()).contains("`stat_cache_expire=`").contains("`allow_other`");
  }

  @Test
  @Launch(value = {"mount", "bkt", "/no/such/dir-ossgw-test"}, exitCode = ExitCodes.USAGE)
  void missingMountpointIsAUsageError(LaunchResult r) {
    assertThat(r.getErrorOutput()).contains("ossgw: mount point /no/such/dir-ossgw-test does not exist");
  }

  @Test
  @Launch(value = {"mount", "bkt", "/tmp", "-o", "url=http://127.0.0.1:1,use_xattr"}, exitCode = ExitCodes.USAGE)
  void notImplementedOptionIsRefusedByName(LaunchResult r) {
    assertThat(r.getErrorOutput()).contains("'use_xattr' is not implemented");
  }

  @Test
  @Launch(value = {"mount", "--bogus"}, exitCode = ExitCodes.USAGE)
  void unknownCliOption(LaunchResult r) {
    assertThat(r.getErrorOutput()).contains("Unknown option: '--bogus'");
  }
}
