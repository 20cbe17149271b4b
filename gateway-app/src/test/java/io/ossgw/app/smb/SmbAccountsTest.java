package io.ossgw.app.smb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmbAccountsTest {
  @TempDir
  Path tmp;

  @Test
  void theUserListIsOnlyNameUidFullNameLines() {
    String listing = """
        tdbsam_open: Converting version 0.0 database to version 4.0.
        tdbsam_convert_backup: updated /x/private/passdb.tdb file.
        alice:1001:Alice A.
        bob:-1:
        """;
    assertThat(SmbAccounts.parseUserList(listing)).containsExactly("alice", "bob");
  }

  /** A fresh passdb makes pdbedit print DEBUG lines on stderr; those were read as the users 'tdbsam_open' etc. */
  @Test
  void aFreshPassdbListsNoUsersThroughTheRealPdbedit() throws Exception {
    SambaInstalled.require("pdbedit");
    SmbLayout l = new SmbLayout(tmp.resolve("smb"));
    l.create(List.of("pub"));
    Files.writeString(l.conf(), SmbConf.render(l, new SmbSettings("127.0.0.1", 14450, Path.of("/usr/sbin/smbd"), 1,
        Duration.ofSeconds(10), List.of(), tmp.resolve("smb")),
        List.of(SmbConfTest.share("pub", true, List.of(), true))));
    Path pdbedit = SambaTools.find("pdbedit").orElseThrow();
    assertThat(SmbAccounts.passdbUsers(pdbedit, l.conf())).isEmpty();
    assertThat(SmbAccounts.passdbUsers(pdbedit, l.conf())).isEmpty();
  }
}
