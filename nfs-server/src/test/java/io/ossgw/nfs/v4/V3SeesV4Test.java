package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.DirOps.*;
import static io.ossgw.nfs.v4.V4Client.putfh;
import static io.ossgw.nfs.v4.V4Client.savefh;
import static io.ossgw.nfs.v4.xdr.Nfs4.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an NFSv4.1 client makes, an NFSv3 client of the same server sees: libnfs's {@code nfs-ls} (Debian package
 * libnfs-utils, the v3 client the other NFS tests run) lists the directories, symbolic link and FIFO CREATE made, in
 * a directory RENAME moved, without what REMOVE took away.
 */
class V3SeesV4Test {
  @TempDir
  Path state;

  private static String nfsLs(int port, String path) throws Exception {
    String url = "nfs://127.0.0.1/" + V4Gateway.BUCKET + path + "?version=3&nfsport=" + port + "&mountport=" + port
        + "&uid=1000&gid=1000";
    Process p = new ProcessBuilder("nfs-ls", url).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(Slowdown.scaledMillis(30_000), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(p.exitValue()).as("nfs-ls %s: %s (needs libnfs-utils)", url, out).isZero();
    return out;
  }

  /** The line of {@code name} in an nfs-ls listing. */
  private static String line(String listing, String name) {
    return listing.lines().filter(l -> l.endsWith(" " + name)).findFirst().orElseThrow(
        () -> new AssertionError(name + " not in\n" + listing));
  }

  @Test
  void nfsLsOverV3ListsWhatV4Made() throws Exception {
    try (V4Gateway gw = V4Gateway.simple(state); V4Client c = new V4Client(gw.port(), 1000, 1000)) {
      byte[] root = fh(c, "/" + V4Gateway.BUCKET);
      ok(c, putfh(root), mkdir("made"), mkdir("sub"));
      byte[] made = fh(c, "/" + V4Gateway.BUCKET + "/made");
      ok(c, putfh(made), symlink("link", "sub"));
      ok(c, putfh(made), create(NF4FIFO, "fifo", NO_ATTRS));
      ok(c, putfh(made), mkdir("gone"));
      ok(c, putfh(made), remove("gone"));
      ok(c, putfh(root), savefh(), putfh(root), rename("made", "moved"));

      String top = nfsLs(gw.port(), "/");
      assertThat(top).contains(" moved").doesNotContain(" made");
      String ls = nfsLs(gw.port(), "/moved");
      assertThat(line(ls, "sub")).startsWith("d");
      assertThat(line(ls, "link")).startsWith("l");
      // nfs-ls prints a type letter for -, d, l, c and b only: a FIFO's line starts with its permissions
      assertThat(line(ls, "fifo")).startsWith("rw-r--r--");
      assertThat(ls).doesNotContain("gone");
      assertThat(List.of(nfsLs(gw.port(), "/moved/sub"))).allSatisfy(s -> assertThat(s.strip()).isEmpty());
    }
  }
}
