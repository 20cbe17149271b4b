package io.ossgw.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lease state machine on an injected clock (never a sleep): acquisition, renewal at the interval, takeover only
 * after expiry, fencing by the local clock before the store can hand the lease on (store cut, paused holder), refused
 * renewals, release, and monotonic fencing tokens.
 */
class LeaseTest {
  static final Duration TTL = Duration.ofSeconds(5);
  static final Duration RENEW = Duration.ofSeconds(1);
  final AtomicLong now = new AtomicLong(1_000_000_000L);
  final MemoryLeaseStore store = new MemoryLeaseStore(now::get);

  /** Records acquisitions and losses. */
  static final class Events implements Lease.Listener {
    final List<String> log = new ArrayList<>();

    @Override
    public void acquired(long token) {
      log.add("acquired " + token);
    }

    @Override
    public void lost(long token, String reason) {
      log.add("lost " + token + ": " + reason);
    }
  }

  final Events ea = new Events();
  final Events eb = new Events();
  final Lease a = new Lease(store, "a", TTL, RENEW, now::get, ea);
  final Lease b = new Lease(store, "b", TTL, RENEW, now::get, eb);

  void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  /** Steps both leases every 100 ms for {@code d} (a running cluster). */
  void run(Duration d, Lease... leases) {
    for (long t = 0; t < d.toMillis(); t += 100) {
      for (Lease l : leases) {
        l.step();
      }
      advance(Duration.ofMillis(100));
    }
  }

  @Test
  void firstAsksTakesItSecondStaysStandbyWhileTheHolderRenews() {
    a.step();
    b.step();
    assertThat(a.state()).isEqualTo(Lease.State.HOLDER);
    assertThat(a.valid()).isTrue();
    assertThat(a.token()).isEqualTo(1);
    assertThat(b.state()).isEqualTo(Lease.State.STANDBY);
    assertThat(b.valid()).isFalse();
    assertThat(b.token()).isZero();
    run(Duration.ofSeconds(60), a, b); // twelve TTLs: renewals keep it
    assertThat(a.valid()).isTrue();
    assertThat(b.state()).isEqualTo(Lease.State.STANDBY);
    assertThat(ea.log).containsExactly("acquired 1");
    assertThat(eb.log).isEmpty();
    assertThat(store.holder(RENEW)).contains(new LeaseStore.Holder("a", 1));
  }

  @Test
  void stepAsksForTheNextRenewalAtTheInterval() {
    long wait = a.step();
    assertThat(wait).isEqualTo(RENEW.toNanos());
    advance(Duration.ofMillis(400));
    assertThat(a.step()).isEqualTo(Duration.ofMillis(600).toNanos());
  }

  @Test
  void killedHolderIsReplacedAfterTheTtlWithALargerToken() {
    a.step();
    run(Duration.ofSeconds(2), a, b);
    // kill -9 of a: it stops stepping and renewing; b takes over once the store's key expired
    long killedAt = now.get();
    while (b.state() != Lease.State.HOLDER) {
      b.step();
      advance(Duration.ofMillis(100));
    }
    long took = now.get() - killedAt;
    assertThat(took).isGreaterThan(Duration.ofSeconds(3).toNanos()).isLessThanOrEqualTo(TTL.plus(RENEW).toNanos());
    assertThat(b.token()).isEqualTo(2);
    assertThat(eb.log).containsExactly("acquired 2");
  }

  @Test
  void holderCutFromTheStoreFencesItselfBeforeTheStandbyCanTakeOver() {
    CutStore cutForA = new CutStore(store);
    List<String> order = new ArrayList<>();
    Lease[] cut = new Lease[1];
    Lease a2 = new Lease(cutForA, "a", TTL, RENEW, now::get, new Lease.Listener() {
      @Override
      public void acquired(long token) {}

      @Override
      public void lost(long token, String reason) {
        order.add("a lost " + token + ": " + reason);
      }
    });
    cut[0] = a2;
    Lease b2 = new Lease(store, "b", TTL, RENEW, now::get, new Lease.Listener() {
      @Override
      public void acquired(long token) {
        order.add("b acquired " + token + " while a valid=" + cut[0].valid());
      }

      @Override
      public void lost(long token, String reason) {}
    });
    a2.step();
    b2.step();
    run(Duration.ofMillis(2500), a2, b2);
    cutForA.cut = true; // a's connection to the store is cut; b still reaches it
    long cutAt = now.get();
    long fencedAt = -1;
    while (b2.state() != Lease.State.HOLDER) {
      a2.step();
      if (fencedAt < 0 && !a2.valid()) {
        fencedAt = now.get();
      }
      b2.step();
      advance(Duration.ofMillis(50));
    }
    assertThat(order).hasSize(2);
    assertThat(order.get(0)).startsWith("a lost 1: no renewal succeeded for").contains("connection cut (test)");
    assertThat(order.get(1)).isEqualTo("b acquired 2 while a valid=false");
    assertThat(fencedAt - cutAt).isPositive().isLessThan(TTL.toNanos());
    assertThat(a2.storeFailures()).isPositive();
  }

  @Test
  void pausedHolderIsInvalidByItsClockWithoutAStepAndRefusedWhenItResumes() {
    a.step();
    run(Duration.ofSeconds(1), a);
    // SIGSTOP: a takes no step; its clock keeps going
    advance(TTL.minus(Duration.ofMillis(600)));
    assertThat(a.valid()).as("valid until sent + TTL - TTL/10").isFalse();
    advance(Duration.ofMillis(700));
    b.step();
    assertThat(b.state()).isEqualTo(Lease.State.HOLDER);
    // SIGCONT: its next step fences it (nothing was renewed in time), and it does not get the lease back
    a.step();
    assertThat(a.state()).isEqualTo(Lease.State.STANDBY);
    assertThat(ea.log).hasSize(2);
    assertThat(ea.log.get(1)).startsWith("lost 1");
    a.step();
    assertThat(a.state()).isEqualTo(Lease.State.STANDBY);
  }

  @Test
  void renewalRefusedByTheStoreFencesAtOnce() {
    a.step();
    // the key vanished (a store restart without persistence) and b took it
    store.release("a", 1, RENEW);
    b.step();
    advance(RENEW);
    a.step();
    assertThat(a.valid()).isFalse();
    assertThat(ea.log.get(1)).startsWith("lost 1: the store no longer names this node the holder");
    assertThat(a.losses()).isEqualTo(1);
  }

  @Test
  void storeOutagesShorterThanTheTtlAreRiddenOut() {
    a.step();
    store.down(true);
    run(Duration.ofSeconds(3), a);
    assertThat(a.valid()).isTrue();
    assertThat(a.storeError()).isNotNull();
    store.down(false);
    run(Duration.ofSeconds(10), a);
    assertThat(a.valid()).isTrue();
    assertThat(a.storeError()).isNull();
    assertThat(ea.log).containsExactly("acquired 1");
  }

  @Test
  void storeDownForLongerFencesTheHolderAndNoOneHoldsUntilItIsBack() {
    a.step();
    store.down(true);
    run(Duration.ofSeconds(6), a, b);
    assertThat(a.valid()).isFalse();
    assertThat(b.valid()).isFalse();
    store.down(false);
    run(Duration.ofSeconds(2), b, a);
    assertThat(b.valid() ^ a.valid()).as("exactly one holder once the store is back").isTrue();
    assertThat(Math.max(a.token(), b.token())).isEqualTo(2);
  }

  @Test
  void closeReleasesSoTheStandbyTakesOverWithoutWaiting() {
    a.step();
    a.close();
    assertThat(a.state()).isEqualTo(Lease.State.CLOSED);
    assertThat(a.step()).isEqualTo(Long.MAX_VALUE);
    b.step();
    assertThat(b.valid()).isTrue();
    assertThat(ea.log).containsExactly("acquired 1"); // closing is no loss
  }

  @Test
  void validForNamesExactlyTheCurrentToken() {
    a.step();
    assertThat(a.validFor(1)).isTrue();
    assertThat(a.validFor(2)).isFalse();
    assertThat(a.validFor(0)).isFalse();
    assertThat(Fence.ALWAYS.valid()).isTrue();
    assertThat(Fence.ALWAYS.validFor(Fence.ALWAYS.token())).isTrue();
  }

  @Test
  void storeCallsAreGivenATimeoutEndingWithinTheValidity() {
    List<Duration> timeouts = new ArrayList<>();
    LeaseStore recording = new CutStore(store) {
      @Override
      public boolean renew(String node, long token, Duration ttl, Duration timeout) {
        timeouts.add(timeout);
        now.addAndGet(timeout.toNanos()); // the store never answers: the call takes its whole timeout
        throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "timeout", null);
      }
    };
    Lease l = new Lease(recording, "c", TTL, RENEW, now::get, ea);
    l.step();
    long deadline = now.get() + TTL.toNanos() - TTL.toNanos() / 10;
    for (int i = 0; i < 50 && l.state() == Lease.State.HOLDER; i++) {
      advance(Duration.ofNanos(l.step()));
    }
    assertThat(l.state()).isEqualTo(Lease.State.STANDBY);
    assertThat(timeouts).isNotEmpty().allSatisfy(t -> assertThat(t).isLessThanOrEqualTo(RENEW));
    assertThat(now.get()).as("fenced by the deadline, whatever the store's silence").isLessThanOrEqualTo(deadline);
  }

  @Test
  void badTimingsAreRefused() {
    assertThatThrownBy(() -> new Lease(store, "x", Duration.ofMillis(5), Duration.ofMillis(1), now::get, ea))
        .hasMessageContaining("at least 10ms");
    assertThatThrownBy(() -> new Lease(store, "x", TTL, Duration.ofMillis(2500), now::get, ea))
        .hasMessageContaining("below half the TTL");
    assertThatThrownBy(() -> new Lease(store, "x", TTL, Duration.ZERO, now::get, ea))
        .hasMessageContaining("above 0");
  }

  /** A lease store whose connection can be cut for one node (the others still reach the real one). */
  static class CutStore implements LeaseStore {
    final LeaseStore real;
    volatile boolean cut;

    CutStore(LeaseStore real) {
      this.real = real;
    }

    private void check() {
      if (cut) {
        throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "connection cut (test)", null);
      }
    }

    @Override
    public OptionalLong tryAcquire(String node, Duration ttl, Duration timeout) {
      check();
      return real.tryAcquire(node, ttl, timeout);
    }

    @Override
    public boolean renew(String node, long token, Duration ttl, Duration timeout) {
      check();
      return real.renew(node, token, ttl, timeout);
    }

    @Override
    public void release(String node, long token, Duration timeout) {
      check();
      real.release(node, token, timeout);
    }

    @Override
    public Optional<Holder> holder(Duration timeout) {
      check();
      return real.holder(timeout);
    }
  }
}
