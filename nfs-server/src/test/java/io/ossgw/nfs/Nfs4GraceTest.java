package io.ossgw.nfs;

import static io.ossgw.nfs.Nfs4LockClient.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.state.ClientStore;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.testsupport.Slowdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFSv4.1 lease expiry and restarts over TCP against the server over an engine over the OSS emulator, on a clock the
 * test moves: the reaper frees an expired client's locks; after a restart with a state directory the clients that
 * held state reclaim in a grace period (new opens and locks wait, strangers' reclaims are refused) that ends when they
 * all sent RECLAIM_COMPLETE or when it runs out; a start with no such clients has no grace period.
 */
class Nfs4GraceTest {
  static final int BOTH = Nfs4.OPEN4_SHARE_ACCESS_BOTH;
  static final Duration LEASE = Duration.ofSeconds(300);
  static final Duration GRACE = Duration.ofSeconds(60);

  @TempDir
  Path state;
  final TestClock clock = new TestClock();
  NfsGateway gw;
  NfsClient v3;

  private void start() {
    start(b -> {});
  }

  private void start(java.util.function.Consumer<NfsServerBuilder> more) {
    gw = NfsGateway.withServer(state, b -> more.accept(b.nfsV41(true).v4Clock(clock).v4Lease(LEASE).v4Grace(GRACE)));
    v3 = new NfsClient(gw.port(), 0, 0);
  }

  @AfterEach
  void stop() {
    if (v3 != null) {
      v3.close();
    }
    if (gw != null) {
      gw.close();
    }
  }

  private byte[] file(String name) {
    nfs_fh3 root = v3.root("/" + NfsGateway.BUCKET);
    return v3.create(root, name, 0666).obj().data();
  }

  private String record() throws Exception {
    Path f = state.resolve("nfs").resolve(ClientStore.FILE);
    return Files.exists(f) ? Files.readString(f) : "";
  }

  private static String hex(String owner) {
    return HexFormat.of().formatHex(owner.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void theReaperFreesAnExpiredClientsLocks() throws Exception {
    start();
    byte[] f = file("expiring");
    try (Nfs4LockClient c1 = new Nfs4LockClient(gw.port(), "host-gone")) {
      stateid4 o = c1.openFile(f, "p", BOTH);
      assertThat(c1.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 10, o, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(record()).contains(hex("host-gone"));
      clock.advance(LEASE.plusSeconds(1));
      // no request touches the client table: the server's own timer (every second, real time) must notice it
      // polling for the timer under test, not standing in for a clock
      Slowdown.waitUntil(() -> gw.server.v4Clients().clients() == 0, Duration.ofSeconds(10));
      assertThat(gw.server.v4Clients().clients()).isZero();
      assertThat(gw.server.locks().size()).isZero();
      assertThat(gw.server.v4State().lockStateCount()).isZero();
      assertThat(record()).doesNotContain(hex("host-gone"));
      assertThat(c1.call().status()).isEqualTo(Nfs4.NFS4ERR_BADSESSION);
      try (Nfs4LockClient c2 = new Nfs4LockClient(gw.port(), "host-next")) {
        stateid4 o2 = c2.openFile(f, "p", BOTH);
        assertThat(c2.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 10, o2, "lo", false)).status())
            .isEqualTo(Nfs4.NFS4_OK);
      }
    }
  }

  @Test
  void afterARestartKnownClientsReclaimInGraceUntilAllSentReclaimComplete() throws Exception {
    start();
    byte[] f = file("reclaimed");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-r");
        Nfs4LockClient idle = new Nfs4LockClient(gw.port(), "host-idle")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(record()).contains(hex("host-r")).doesNotContain(hex("host-idle")); // no state, no record
      long before = c.clientid;

      clock.advance(Duration.ofSeconds(1)); // client ids carry the boot second: a restart in the same second reuses them
      gw.restart();
      c.reconnect();
      assertThat(c.clientid).isNotEqualTo(before);
      assertThat(c.call(putfh(f), c.open("p", BOTH, false)).status()).isEqualTo(Nfs4.NFS4ERR_GRACE);
      COMPOUND4res r = c.call(putfh(f), c.open("p", BOTH, true));
      assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
      stateid4 o2 = openStateid(last(r));
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o2, "lo", false)).status())
          .isEqualTo(Nfs4.NFS4ERR_GRACE);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o2, "lo", true)).status()).isEqualTo(Nfs4.NFS4_OK);

      v3.close();
      v3 = new NfsClient(gw.port(), 0, 0);
      nfs_fh3 fh3 = new nfs_fh3(f);
      NlmTest.Who nlm = new NlmTest.Who("hostv3", 5);
      // NLM shares the lock table: it takes no new lock while v4.1 clients reclaim
      assertThat(NlmTest.lock(v3, nlm, fh3, false, true, 200, 1, 1)).isEqualTo(NlmTest.NLM4_DENIED_GRACE_PERIOD);
      assertThat(NlmTest.test(v3, nlm, fh3, true, 200, 1).stat()).isEqualTo(NlmTest.NLM4_DENIED_GRACE_PERIOD);
      try (Nfs4LockClient stranger = new Nfs4LockClient(gw.port(), "host-new")) {
        assertThat(stranger.call(putfh(f), stranger.open("p", BOTH, true)).status())
            .isEqualTo(Nfs4.NFS4ERR_RECLAIM_BAD);
        assertThat(stranger.call(putfh(f), stranger.open("p", BOTH, false)).status()).isEqualTo(Nfs4.NFS4ERR_GRACE);
        assertThat(stranger.call(putfh(f), lockt(Nfs4.READ_LT, 0, 1, "x")).status()).isEqualTo(Nfs4.NFS4ERR_GRACE);

        assertThat(c.call(reclaimComplete()).status()).isEqualTo(Nfs4.NFS4_OK); // the only known client: grace ends
        assertThat(gw.server.v4State().grace().active()).isFalse();
        stateid4 so = stranger.openFile(f, "p", BOTH);
        COMPOUND4res d = stranger.call(putfh(f), lockNew(Nfs4.READ_LT, 50, 1, so, "x", false));
        assertThat(d.status()).isEqualTo(Nfs4.NFS4ERR_DENIED); // the reclaimed lock holds
        assertThat(((LOCK4denied) last(d).resok()).owner().clientid()).isEqualTo(c.clientid);
        assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 200, 1, o2, "lo", true)).status())
            .isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
        assertThat(NlmTest.lock(v3, nlm, fh3, false, true, 50, 1, 1)).isEqualTo(NlmTest.NLM4_DENIED);
        assertThat(NlmTest.lock(v3, nlm, fh3, false, true, 200, 1, 1)).isEqualTo(NlmTest.NLM4_GRANTED);
      }
      assertThat(record()).contains(hex("host-r"));
    }
  }

  @Test
  void graceEndsWithTimeAndAFirstStartHasNone() throws Exception {
    start();
    byte[] f = file("timed");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-t")) {
      // a first start: nothing to reclaim, no grace
      assertThat(gw.server.v4State().grace().active()).isFalse();
      assertThat(c.call(putfh(f), c.open("p", BOTH, true)).status()).isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 1, o, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);

      gw.restart();
      c.reconnect();
      assertThat(gw.server.v4State().grace().active()).isTrue();
      clock.advance(GRACE);
      assertThat(c.call(putfh(f), c.open("p", BOTH, true)).status()).isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
      stateid4 o2 = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 1, o2, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);
    }
  }

  @Test
  void aRestartAfterEveryClientLeftHasNoGrace() throws Exception {
    start();
    byte[] f = file("left");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-l")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), close(o)).status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(c.raw(op(Nfs4.OP_DESTROY_SESSION, new DESTROY_SESSION4args(c.session))).status())
          .isEqualTo(Nfs4.NFS4_OK);
      assertThat(c.raw(op(Nfs4.OP_DESTROY_CLIENTID, new DESTROY_CLIENTID4args(c.clientid))).status())
          .isEqualTo(Nfs4.NFS4_OK);
      assertThat(record()).doesNotContain(hex("host-l"));
      gw.restart();
      assertThat(gw.server.v4State().grace().active()).isFalse();
      c.reconnect();
      assertThat(c.openFile(f, "p", BOTH).seqid()).isEqualTo(1);
    }
  }

  @Test
  void withoutAStateDirectoryThereIsNoRecordAndNoGrace() throws Exception {
    start(b -> b.stateDir(null));
    byte[] f = file("unkept");
    try (Nfs4LockClient c = new Nfs4LockClient(gw.port(), "host-u")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 1, o, "lo", false)).status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(record()).isEmpty();
      clock.advance(Duration.ofSeconds(1));
      gw.restart();
      assertThat(gw.server.v4State().grace().active()).isFalse();
      v3.close();
      v3 = new NfsClient(gw.port(), 0, 0);
      byte[] f2 = file("unkept-2"); // handles do not survive either: a new file
      c.reconnect();
      assertThat(c.call(putfh(f2), c.open("p", BOTH, true)).status()).isEqualTo(Nfs4.NFS4ERR_NO_GRACE);
      assertThat(c.openFile(f2, "p", BOTH).seqid()).isEqualTo(1);
    }
  }
}
