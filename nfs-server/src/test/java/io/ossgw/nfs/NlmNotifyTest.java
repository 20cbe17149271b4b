package io.ossgw.nfs;

import static io.ossgw.nfs.NlmTest.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.MemoryInodeNumberStore;
import io.ossgw.nfs.nlm.MonitorList;
import io.ossgw.nfs.xdr.*;
import io.ossgw.testsupport.Slowdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NLM clients told of a restart or a takeover (issue 23 item 2; XNFS chapter 11): a host that takes an NLM lock is
 * recorded (the state directory's {@code nlm-hosts}, or the cluster store), and the next start raises the NSM state
 * number and sends the host's statd SM_NOTIFY (found through its rpcbind, over UDP); the host reclaims its lock
 * (LOCK with reclaim set) in the grace period, while another owner's new LOCK and TEST get NLM4_DENIED_GRACE_PERIOD.
 * The NLM calls go through the real RPC over TCP to the server over an engine over the OSS emulator; the client's
 * statd and rpcbind are {@link FakeStatd} on oncrpc4j's RPC server; grace runs on a clock the test moves.
 */
class NlmNotifyTest {
  static final Duration GRACE = Duration.ofSeconds(60);
  static final int NLM4_DENIED_NOLOCKS = 2;
  /** How long an SM_NOTIFY may take to arrive on a quiet machine (tries, backoff), before Slowdown's scaling. */
  static final Duration ARRIVAL = Duration.ofSeconds(30);

  @TempDir
  Path state;
  final Nfs4LockClient.TestClock clock = new Nfs4LockClient.TestClock();
  NfsGateway gw;
  NfsClient a;
  NfsClient b;
  FakeStatd statd;

  @AfterEach
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {a, b, gw, statd}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private void start(Consumer<NfsServerBuilder> options) {
    statd = new FakeStatd();
    gw = NfsGateway.withServer(state, bld -> {
      bld.v4Clock(clock).v4Grace(GRACE).nsmRpcbindPort(statd.rpcbindPort);
      options.accept(bld);
    });
    connect();
  }

  /** New connections (the server's restart closed the old ones), as the client's lockd makes them. */
  private void connect() {
    if (a != null) {
      a.close();
      b.close();
    }
    a = new NfsClient(gw.port(), 1000, 1000);
    b = new NfsClient(gw.port(), 1000, 1000);
  }

  private nfs_fh3 file(String name) {
    CREATE3res r = a.create(a.root("/" + NfsGateway.BUCKET), name, 0644);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  /** A monitored, non-blocking, exclusive LOCK, a reclaim or not (nlm4_lockargs, RFC 1813 appendix II). */
  static int lock(NfsClient c, Who who, nfs_fh3 fh, long offset, long length, boolean reclaim) {
    return c.call(NLM, 4, LOCK, w -> {
      w.opaque(new byte[] {1}).bool(false).bool(true);
      NlmTest.lock(w, who, fh.data(), offset, length);
      w.bool(reclaim).int32(3);
    }, NlmTest::res);
  }

  private Path listFile() {
    return state.resolve("nfs").resolve(MonitorList.FILE);
  }

  private String listed() throws Exception {
    return Files.readString(listFile());
  }

  private static String line(Who who) {
    return "127.0.0.1 127.0.0.1 " + HexFormat.of().formatHex(who.host().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aRestartNotifiesTheLockHoldersStatdAndItReclaimsInGrace() throws Exception {
    start(bld -> {});
    nfs_fh3 f = file("held");
    assertThat(lock(a, A, f, 0, 100, false)).isEqualTo(NLM4_GRANTED);
    int before = gw.server.nlmHosts().state();
    assertThat(before % 2).as("odd: up").isOne();
    assertThat(listed()).contains("state " + before + "\n", line(A));
    assertThat(statd.notices).as("nobody to notify at a first start").isEmpty();

    gw.restart(); // the lock table is gone with the process; the list and the state number are on disk
    FakeStatd.Notice n = statd.next(Slowdown.scaled(ARRIVAL));
    assertThat(n).as("SM_NOTIFY at the client's statd").isEqualTo(new FakeStatd.Notice("127.0.0.1", before + 2,
        "127.0.0.1"));
    assertThat(listed()).contains("state " + (before + 2) + "\n");
    connect();
    assertThat(lock(b, B, f, 50, 1, false)).as("a new lock in grace").isEqualTo(NLM4_DENIED_GRACE_PERIOD);
    assertThat(test(b, B, f, true, 50, 1).stat()).isEqualTo(NLM4_DENIED_GRACE_PERIOD);
    assertThat(lock(a, A, f, 0, 100, true)).as("the reclaim").isEqualTo(NLM4_GRANTED);
    clock.advance(GRACE);
    assertThat(lock(b, B, f, 50, 1, false)).as("the reclaimed lock holds").isEqualTo(NLM4_DENIED);
    assertThat(test(b, B, f, true, 0, 0)).isEqualTo(new TestRes(NLM4_DENIED, true, A.svid(), "101@hosta", 0, 100));
    assertThat(Slowdown.waitUntil(() -> gw.server.nlmHosts().toNotify().isEmpty(), ARRIVAL)).isTrue();
    assertThat(listed()).as("A holds a lock again: still listed").contains(line(A));
    assertThat(statd.notices).isEmpty();
  }

  @Test
  void aHostIsDroppedWhenItsLocksAreGoneOrItRebooted() throws Exception {
    start(bld -> {});
    nfs_fh3 f = file("dropped");
    assertThat(lock(a, A, f, 0, 1, false)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, 1, 1, false)).isEqualTo(NLM4_GRANTED);
    assertThat(unlock(a, A, f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(listed()).as("kept a while: a program locking in a loop costs no write").contains(line(A), line(B));
    clock.advance(MonitorList.IDLE);
    assertThat(lock(b, B, f, 2, 1, false)).isEqualTo(NLM4_GRANTED);
    assertThat(listed()).doesNotContain(line(A)).contains(line(B));
    b.call(NLM, 4, FREE_ALL, w -> w.string(B.host()).int32(8), r -> null); // B rebooted
    assertThat(listed()).doesNotContain(line(B));
    gw.restart();
    assertThat(gw.server.nlmHosts().toNotify()).isEmpty();
    connect();
    assertThat(lock(b, B, f, 0, 0, false)).as("no grace: nobody to reclaim").isEqualTo(NLM4_GRANTED);
  }

  @Test
  void anUnreachableHostIsDroppedAfterItsTries() throws Exception {
    int nothing = FakeStatd.freeUdpPort();
    start(bld -> {
      bld.nsmRpcbindPort(nothing);
      bld.nsmAttempts = 2;
      bld.nsmFirstWait = Duration.ofMillis(10);
      bld.nsmTimeout = Duration.ofMillis(300);
    });
    nfs_fh3 f = file("unreachable");
    assertThat(lock(a, A, f, 0, 1, false)).isEqualTo(NLM4_GRANTED);
    gw.restart();
    assertThat(gw.server.nlmHosts().toNotify()).hasSize(1);
    assertThat(Slowdown.waitUntil(() -> gw.server.nlmHosts().toNotify().isEmpty(), ARRIVAL)).isTrue();
    assertThat(gw.server.nlmHosts().hosts()).isEmpty();
    assertThat(listed()).doesNotContain(line(A));
  }

  /**
   * A takeover: the monitor list and the state number live in the cluster store (here its in-memory form), no state
   * directory; the node that takes over (the restarted server) loads them, notifies the former holder's hosts under
   * the configured name, and runs the grace period for them, for NFSv4.1 clients too (no v4.1 client was known).
   */
  @Test
  void theNodeTakingOverNotifiesTheFormerHoldersHostsFromTheStore() throws Exception {
    ClientRecordStore.Memory hosts = new ClientRecordStore.Memory();
    MemoryInodeNumberStore handles = new MemoryInodeNumberStore();
    start(bld -> bld.nfsV41(true).stateDir(null).sharedHandles(handles).clientRecords(new ClientRecordStore.Memory())
        .nlmHosts(hosts).nsmName("nfs.example.com"));
    nfs_fh3 f = file("taken-over");
    assertThat(lock(a, A, f, 0, 0, false)).isEqualTo(NLM4_GRANTED);
    Map<String, byte[]> stored = hosts.loadAll();
    assertThat(stored).containsOnlyKeys(MonitorList.STATE_KEY, A.host() + "@127.0.0.1");
    assertThat(new String(stored.get(MonitorList.STATE_KEY), StandardCharsets.US_ASCII)).isEqualTo("1");

    gw.restart(); // the next holder: nothing local, everything from the store
    assertThat(statd.next(Slowdown.scaled(ARRIVAL)))
        .isEqualTo(new FakeStatd.Notice("nfs.example.com", 3, "127.0.0.1"));
    assertThat(new String(hosts.loadAll().get(MonitorList.STATE_KEY), StandardCharsets.US_ASCII)).isEqualTo("3");
    assertThat(gw.server.v4State().grace().active()).as("v4.1 waits for the NLM reclaims too").isTrue();
    connect();
    assertThat(lock(b, B, f, 0, 1, false)).isEqualTo(NLM4_DENIED_GRACE_PERIOD);
    assertThat(lock(a, A, f, 0, 0, true)).isEqualTo(NLM4_GRANTED);
    clock.advance(GRACE);
    assertThat(gw.server.v4State().grace().active()).isFalse();
    assertThat(lock(b, B, f, 0, 1, false)).isEqualTo(NLM4_DENIED);
    assertThat(listed()).as("the state directory is not used").doesNotContain(line(A));
  }

  /** The store failing while a host is recorded: unreachable is NLM4_DENIED_NOLOCKS, full is served unrecorded. */
  @Test
  void anUnreachableStoreRefusesTheLockAFullOneServesItUnrecorded() throws Exception {
    FlakyStore hosts = new FlakyStore();
    start(bld -> bld.stateDir(null).nlmHosts(hosts));
    nfs_fh3 f = file("store-down");
    hosts.failure = ClusterStoreException.Kind.UNREACHABLE;
    assertThat(lock(a, A, f, 0, 0, false)).isEqualTo(NLM4_DENIED_NOLOCKS);
    hosts.failure = null;
    assertThat(test(b, B, f, true, 0, 0).stat()).as("no lock was taken").isEqualTo(NLM4_GRANTED);
    hosts.failure = ClusterStoreException.Kind.FULL;
    assertThat(lock(a, A, f, 0, 0, false)).isEqualTo(NLM4_GRANTED);
    hosts.failure = null;
    assertThat(hosts.loadAll()).containsOnlyKeys(MonitorList.STATE_KEY);
    assertThat(lock(b, B, f, 0, 0, false)).isEqualTo(NLM4_DENIED);
  }

  /** The in-memory store, failing every call with {@link #failure} while it is set. */
  private static final class FlakyStore implements ClientRecordStore {
    final ClientRecordStore.Memory records = new ClientRecordStore.Memory();
    volatile ClusterStoreException.Kind failure;

    private void check() {
      if (failure != null) {
        throw new ClusterStoreException(failure, failure + " (test)", null);
      }
    }

    @Override
    public void put(String key, byte[] record) {
      check();
      records.put(key, record);
    }

    @Override
    public void remove(String key) {
      check();
      records.remove(key);
    }

    @Override
    public Map<String, byte[]> loadAll() {
      check();
      return records.loadAll();
    }
  }
}
