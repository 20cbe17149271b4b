package io.ossgw.nfs.v4.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.Nfs4;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The bounds of {@link Opens}: a client that opens without closing gets NFS4ERR_DELAY past its share (and all clients
 * past the total), while upgrades of opens it holds still work and a close or its removal makes room. The state
 * table alone (no file is touched: the handle pin is not taken here, the TCP tests cover it).
 */
class OpensBoundsTest {
  /** An export whose file system is never called. */
  private static final Export EXPORT = Export.builder("/b", (VirtualFileSystem) Proxy.newProxyInstance(
      OpensBoundsTest.class.getClassLoader(), new Class<?>[] {VirtualFileSystem.class}, (p, m, a) -> {
        throw new AssertionError("no file system call expected: " + m);
      })).build();

  private static ClientRecord client(int n) {
    return new ClientRecord(n, ("c" + n).getBytes(StandardCharsets.UTF_8), new byte[8], "sys:0", 1, Long.MAX_VALUE);
  }

  private static Opens.Opened open(Opens o, ClientRecord c, String owner, long fileid) {
    return o.open(c, owner.getBytes(StandardCharsets.UTF_8), EXPORT, fileid, Nfs4.OPEN4_SHARE_ACCESS_READ, 0,
        () -> null);
  }

  @Test
  void newOpensPastTheBoundsWaitAndUpgradesDoNot() {
    StateTable states = new StateTable();
    Opens opens = new Opens(states, 2, 3);
    ClientRecord a = client(1);
    ClientRecord b = client(2);
    Opens.Opened first = open(opens, a, "o", 10);
    open(opens, a, "o", 11);
    assertThatThrownBy(() -> open(opens, a, "o", 12)).isInstanceOf(Nfs4Exception.class)
        .extracting(e -> ((Nfs4Exception) e).status()).isEqualTo(Nfs4.NFS4ERR_DELAY);
    assertThat(open(opens, a, "o", 10).stateid().seqid()).isEqualTo(2); // an upgrade of a held open
    open(opens, b, "o", 10);
    assertThatThrownBy(() -> open(opens, b, "o", 13)).isInstanceOf(Nfs4Exception.class); // 3 in all
    assertThat(opens.size()).isEqualTo(3);

    opens.close(first.state());
    assertThat(states.find(first.stateid())).isNull();
    open(opens, b, "o", 13);
    opens.closeClient(a);
    assertThat(opens.size()).isEqualTo(2);
    assertThat(states.count(OpenState.class)).isEqualTo(2);
    assertThatThrownBy(() -> open(opens, b, "o", 14)).isInstanceOf(Nfs4Exception.class); // b's own bound
    open(opens, client(3), "o", 14); // room in all again
    assertThat(opens.size()).isEqualTo(3);
  }
}
