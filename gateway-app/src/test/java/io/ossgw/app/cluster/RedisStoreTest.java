package io.ossgw.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.app.config.ClusterConfig;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.Invalidation;
import io.ossgw.core.cluster.InvalidationChannel;
import io.ossgw.core.cluster.Lease;
import io.ossgw.core.cluster.LeaseStore;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster store against a real Valkey (or Redis) server this test starts: the lease scripts, fencing tokens,
 * expiry and takeover, pub/sub invalidations across a store restart, client records, a password,
 * and a full store (maxmemory) refusing with a clear error and nothing half-written.
 */
class RedisStoreTest {
  @TempDir Path dir;
  final Vertx vertx = Vertx.vertx();
  final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    vertx.closeAndAwait();
  }

  ValkeyServer server(String... extra) throws Exception {
    ValkeyServer v = ValkeyServer.start(dir, extra);
    open.add(v);
    return v;
  }

  RedisStore store(ValkeyServer v, String node, Optional<String> password) {
    ClusterSettings s = new ClusterSettings(v.url(), false, ClusterConfig.Mode.STANDBY, "t", node,
        Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(2), password, Optional.empty());
    RedisStore r = new RedisStore(vertx, s, RedisStore.Recorder.NONE);
    open.add(r);
    return r;
  }

  static void await(BooleanSupplier cond, String what) {
    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(until);
      Thread.onSpinWait();
      try {
        Thread.sleep(10); // polling a condition under a deadline
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  static final Duration T = Duration.ofSeconds(2);

  @Test
  void leaseScriptsGrantRenewAndReleaseOnlyToTheirHolder() throws Exception {
    ValkeyServer v = server();
    RedisLeaseStore a = new RedisLeaseStore(store(v, "a", Optional.empty()));
    RedisLeaseStore b = new RedisLeaseStore(store(v, "b", Optional.empty()));
    assertThat(a.holder(T)).isEmpty();
    assertThat(a.tryAcquire("a", Duration.ofSeconds(30), T)).isEqualTo(OptionalLong.of(1));
    assertThat(b.tryAcquire("b", Duration.ofSeconds(30), T)).isEmpty();
    assertThat(b.holder(T)).contains(new LeaseStore.Holder("a", 1));
    assertThat(b.renew("b", 1, Duration.ofSeconds(30), T)).isFalse();
    assertThat(a.renew("a", 2, Duration.ofSeconds(30), T)).isFalse();
    assertThat(a.renew("a", 1, Duration.ofSeconds(30), T)).isTrue();
    b.release("b", 1, T); // not b's: nothing happens
    assertThat(a.holder(T)).contains(new LeaseStore.Holder("a", 1));
    a.release("a", 1, T);
    assertThat(b.tryAcquire("b", Duration.ofSeconds(30), T)).isEqualTo(OptionalLong.of(2));
    assertThat(a.renew("a", 1, Duration.ofSeconds(30), T)).isFalse();
  }

  @Test
  void anUnrenewedLeaseExpiresInTheStoreAndTheNextHolderGetsALargerToken() throws Exception {
    ValkeyServer v = server();
    RedisLeaseStore a = new RedisLeaseStore(store(v, "a", Optional.empty()));
    RedisLeaseStore b = new RedisLeaseStore(store(v, "b", Optional.empty()));
    assertThat(a.tryAcquire("a", Duration.ofMillis(300), T)).isEqualTo(OptionalLong.of(1));
    long t0 = System.nanoTime();
    OptionalLong[] got = {OptionalLong.empty()};
    await(() -> (got[0] = b.tryAcquire("b", Duration.ofSeconds(30), T)).isPresent(), "the key's expiry");
    assertThat(System.nanoTime() - t0).isGreaterThan(Duration.ofMillis(250).toNanos());
    assertThat(got[0]).isEqualTo(OptionalLong.of(2));
  }

  @Test
  void twoLeasesOverTheStoreHandOverAfterTheHolderStops() throws Exception {
    ValkeyServer v = server();
    List<String> events = new CopyOnWriteArrayList<>();
    Lease a = lease(store(v, "a", Optional.empty()), "a", events);
    Lease b = lease(store(v, "b", Optional.empty()), "b", events);
    await(() -> {
      a.step(); // the first step may meet a connection still being made (a refused step is retried)
      return a.valid();
    }, "a's acquisition");
    b.step();
    // (a step whose reply came too late may have taken token 1 unseen: that key expires unrenewed)
    assertThat(events).hasSize(1).allSatisfy(e -> assertThat(e).startsWith("a acquired "));
    long aToken = a.token();
    long killed = System.nanoTime(); // a stops renewing (kill -9)
    await(() -> {
      b.step();
      return b.valid();
    }, "b's takeover");
    long took = System.nanoTime() - killed;
    assertThat(took).isGreaterThan(Duration.ofMillis(800).toNanos()).isLessThan(Duration.ofSeconds(10).toNanos());
    assertThat(events).hasSize(2);
    assertThat(b.token()).isGreaterThan(aToken);
  }

  private static Lease lease(RedisStore s, String node, List<String> events) {
    return new Lease(new RedisLeaseStore(s), node, Duration.ofMillis(1000), Duration.ofMillis(200),
        Ticker.systemTicker(), new Lease.Listener() {
          @Override
          public void acquired(long token) {
            events.add(node + " acquired " + token);
          }

          @Override
          public void lost(long token, String reason) {
            events.add(node + " lost " + token);
          }
        });
  }

  @Test
  void aStoppedStoreIsUnreachableAndTheClientReconnectsAfterItsRestart() throws Exception {
    ValkeyServer v = server();
    RedisLeaseStore a = new RedisLeaseStore(store(v, "a", Optional.empty()));
    assertThat(a.tryAcquire("a", Duration.ofSeconds(30), T)).isPresent();
    v.stop();
    assertThatThrownBy(() -> a.holder(T)).isInstanceOf(ClusterStoreException.class)
        .satisfies(e -> assertThat(((ClusterStoreException) e).kind()).isEqualTo(ClusterStoreException.Kind.UNREACHABLE))
        .hasMessageContaining("lease_holder on redis://127.0.0.1:" + v.port);
    v.start(); // without persistence: the lease and the token counter are gone
    await(() -> {
      try {
        return a.holder(T).isEmpty();
      } catch (ClusterStoreException e) {
        return false;
      }
    }, "a reconnection");
    assertThat(a.tryAcquire("a", Duration.ofSeconds(30), T)).isPresent();
  }

  @Test
  void invalidationsReachTheOtherNodesNotTheSenderAndSurviveAStoreRestart() throws Exception {
    ValkeyServer v = server();
    RedisInvalidationChannel a = new RedisInvalidationChannel(store(v, "a", Optional.empty()), "a");
    RedisInvalidationChannel b = new RedisInvalidationChannel(store(v, "b", Optional.empty()), "b");
    List<Invalidation> atA = new CopyOnWriteArrayList<>();
    List<Invalidation> atB = new CopyOnWriteArrayList<>();
    AtomicInteger resyncs = new AtomicInteger();
    open.add(a.subscribe(InvalidationChannel.listener(atA::add, () -> {})));
    open.add(b.subscribe(InvalidationChannel.listener(atB::add, resyncs::incrementAndGet)));
    Invalidation inv = new Invalidation("a", "bkt", "dir/file\nname", false);
    // the subscription may still be connecting: publish until one arrives
    await(() -> {
      a.publish(inv);
      return !atB.isEmpty();
    }, "the first delivery");
    assertThat(atB.getFirst()).isEqualTo(inv);
    assertThat(atA).isEmpty();
    assertThat(b.received()).isPositive();
    v.stop();
    v.start();
    await(() -> resyncs.get() == 1, "the resubscription's resync");
    atB.clear();
    Invalidation after = new Invalidation("a", "bkt", "after", true);
    await(() -> {
      a.publish(after);
      return atB.contains(after);
    }, "a delivery after the restart");
  }

  @Test
  void clientRecordsKeepTheirBytes() throws Exception {
    ValkeyServer v = server();
    RedisClientRecordStore a = new RedisClientRecordStore(store(v, "a", Optional.empty()));
    byte[] rec = {0, 1, 2, (byte) 0xff, '\n', 0};
    a.put("client-1", rec);
    a.put("client-2", new byte[] {7});
    RedisClientRecordStore b = new RedisClientRecordStore(store(v, "b", Optional.empty()));
    Map<String, byte[]> all = b.loadAll();
    assertThat(all).containsOnlyKeys("client-1", "client-2");
    assertThat(all.get("client-1")).isEqualTo(rec);
    b.remove("client-1");
    assertThat(a.loadAll()).containsOnlyKeys("client-2");
  }

  @Test
  void aPasswordIsRequiredAndTakenFromTheFile() throws Exception {
    ValkeyServer v = server("--requirepass", "s3cret-pw");
    RedisLeaseStore none = new RedisLeaseStore(store(v, "a", Optional.empty()));
    assertThatThrownBy(() -> none.holder(T)).isInstanceOf(ClusterStoreException.class)
        .satisfies(e -> assertThat(((ClusterStoreException) e).kind()).isEqualTo(ClusterStoreException.Kind.AUTH))
        .hasMessageContaining("ossgw.cluster.password-file");
    Path pw = dir.resolve("pw");
    Files.writeString(pw, "s3cret-pw\n");
    Files.setPosixFilePermissions(pw, PosixFilePermissions.fromString("rw-------"));
    ClusterSettings s = ClusterSettings.from(config(v.url(), pw), "host", 1).orElseThrow();
    assertThat(s.toString()).doesNotContain("s3cret");
    RedisStore withPw = new RedisStore(vertx, s, RedisStore.Recorder.NONE);
    open.add(withPw);
    assertThat(new RedisLeaseStore(withPw).tryAcquire("host-1", Duration.ofSeconds(5), T)).isPresent();
  }

  @Test
  void aFullStoreRefusesNewStateClearlyButStillRenewsTheHolder() throws Exception {
    ValkeyServer v = server("--maxmemory-policy", "noeviction");
    RedisStore s = store(v, "a", Optional.empty());
    RedisLeaseStore leases = new RedisLeaseStore(s);
    RedisInodeNumberStore inodes = new RedisInodeNumberStore(s, "nfs");
    assertThat(leases.tryAcquire("a", Duration.ofSeconds(30), T)).isPresent();
    long first = inodes.allocate(1, "/kept", new long[] {77}, true)[0];
    String filler = "x".repeat(64 * 1024);
    for (int i = 0; i < 48; i++) { // 3 MiB of other data, then a limit well below it: firmly full
      s.call("fill", Request.cmd(Command.SET).arg("filler:" + i).arg(filler), T);
    }
    s.call("config", Request.cmd(Command.CONFIG).arg("SET").arg("maxmemory").arg("1mb"), T);
    ClusterStoreException full = null;
    try {
      s.call("fill", Request.cmd(Command.SET).arg("filler:more").arg(filler), T);
    } catch (ClusterStoreException e) {
      full = e;
    }
    assertThat(full).isNotNull();
    assertThat(full.kind()).isEqualTo(ClusterStoreException.Kind.FULL);
    assertThat(full.getMessage()).contains("the store is full").contains("maxmemory");
    assertThatThrownBy(() -> inodes.allocate(1, "/new-key", new long[] {78}, true))
        .isInstanceOf(ClusterStoreException.class)
        .satisfies(e -> assertThat(((ClusterStoreException) e).kind()).isEqualTo(ClusterStoreException.Kind.FULL));
    // nothing half-written: the path has no number, the number no path; the old entry stands
    assertThat(inodes.known(1, "/new-key")).isNull();
    assertThat(inodes.resolve(1, 78)).isNull();
    assertThat(inodes.allocate(1, "/kept", new long[] {99}, true)[0]).isEqualTo(first);
    // the holder keeps its lease (renewal is allowed under OOM); a new acquisition (another cluster's) is refused
    assertThat(leases.renew("a", 1, Duration.ofSeconds(30), T)).isTrue();
    assertThat(leases.tryAcquire("b", Duration.ofSeconds(30), T)).isEmpty();
    ClusterSettings other = new ClusterSettings(v.url(), false, ClusterConfig.Mode.STANDBY, "t2", "b",
        Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(2), Optional.empty(), Optional.empty());
    RedisStore os = new RedisStore(vertx, other, RedisStore.Recorder.NONE);
    open.add(os);
    assertThatThrownBy(() -> new RedisLeaseStore(os).tryAcquire("b", Duration.ofSeconds(30), T))
        .isInstanceOf(ClusterStoreException.class)
        .satisfies(e -> assertThat(((ClusterStoreException) e).kind()).isEqualTo(ClusterStoreException.Kind.FULL));
  }

  static ClusterConfig config(String url, Path passwordFile) {
    return new ClusterConfig() {
      @Override
      public Optional<String> store() {
        return Optional.of(url);
      }

      @Override
      public Mode mode() {
        return Mode.STANDBY;
      }

      @Override
      public String name() {
        return "t";
      }

      @Override
      public Optional<String> nodeId() {
        return Optional.empty();
      }

      @Override
      public Duration leaseTtl() {
        return Duration.ofSeconds(5);
      }

      @Override
      public Optional<Duration> renewInterval() {
        return Optional.empty();
      }

      @Override
      public Duration timeout() {
        return Duration.ofSeconds(2);
      }

      @Override
      public Optional<Path> passwordFile() {
        return Optional.ofNullable(passwordFile);
      }

      @Override
      public Optional<String> password() {
        return Optional.empty();
      }

      @Override
      public Optional<Path> tlsCaFile() {
        return Optional.empty();
      }
    };
  }
}
