package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.FileAttr;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The requesting process's credentials (fuse_get_context) reach the VFS as the Caller, and with default_permissions
 * the kernel, not the adapter, refuses what the mode bits forbid. Runs commands as nobody (65534) via setpriv.
 */
class CallerMountTest extends MountedTestBase {
  private static final String NOBODY = "setpriv --reuid=65534 --regid=65534 --clear-groups ";

  @Override
  protected FuseOptions options() {
    return FuseOptions.builder().allowOther(true).build(); // other users may enter the mount at all
  }

  @Test
  void filesAreOwnedByTheCallingProcess() throws Exception {
    Files.createDirectory(mnt.resolve("pub"));
    sh("chmod 1777 " + q(mnt.resolve("pub"))).ok();
    sh(NOBODY + "sh -c 'echo hi > " + mnt.resolve("pub/mine.txt") + " && mkdir " + mnt.resolve("pub/mydir") + "'").ok();
    FileAttr f = vfs.getattr("/pub/mine.txt");
    assertThat(f.uid()).isEqualTo(65534);
    assertThat(f.gid()).isEqualTo(65534);
    assertThat(vfs.getattr("/pub/mydir").uid()).isEqualTo(65534);
    assertThat(sh("stat -c %u:%g " + q(mnt.resolve("pub/mine.txt"))).ok().out().trim()).isEqualTo("65534:65534");
  }

  @Test
  void theKernelEnforcesModeBitsBeforeAnyCallback() throws Exception {
    Files.createDirectory(mnt.resolve("private"));
    sh("chmod 755 " + q(mnt.resolve("private"))).ok();
    long creates = m.stats().count(FuseOp.CREATE);
    Sh.Result r = sh(NOBODY + "touch " + q(mnt.resolve("private/nope")));
    assertThat(r.code()).isNotZero();
    assertThat(r.err()).contains("Permission denied");
    assertThat(m.stats().count(FuseOp.CREATE)).isEqualTo(creates);
    Files.writeString(mnt.resolve("private/roots.txt"), "r");
    Sh.Result chown = sh(NOBODY + "chown 65534 " + q(mnt.resolve("private/roots.txt")));
    assertThat(chown.err()).contains("Operation not permitted");
    assertThat(vfs.getattr("/private/roots.txt").uid()).isZero();
  }
}
