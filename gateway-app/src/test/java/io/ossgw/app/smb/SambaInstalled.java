package io.ossgw.app.smb;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/** Tests that run Samba's programs skip where Samba is not installed, except on CI, which installs it (.ci/run). */
final class SambaInstalled {
  private SambaInstalled() {}

  static void require(String... programs) {
    for (String p : programs) {
      if (SambaTools.find(p).isEmpty()) {
        String why = p + " is not installed (apt-get install samba smbclient)";
        if (System.getenv("CI") != null) {
          fail(why + "; CI must have it");
        }
        Assumptions.abort(why);
      }
    }
  }
}
