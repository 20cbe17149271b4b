package io.ossgw.nfs.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The duplicate-request cache's contract on an injected clock: a duplicate within the time to live gets the first
 * call's reply, an expired or forgotten one runs again, the oldest registration is pushed out first and a key
 * registered again after an expiry is not dropped by the older registration's slot. (Through the protocol:
 * RobustnessTest.duplicateNonIdempotentCallsGetTheFirstReply.)
 */
class ReplyCacheTest {
  private final AtomicLong now = new AtomicLong(1_000);

  private static ReplyCache.Key key(int xid) {
    return new ReplyCache.Key(InetAddress.getLoopbackAddress(), xid, 100003, 3, 12, 42L);
  }

  private ReplyCache cache(int max, Duration ttl) {
    return new ReplyCache(max, ttl, now::get);
  }

  @Test
  void aDuplicateWithinTheTtlGetsTheFirstCallsReply() {
    ReplyCache c = cache(16, Duration.ofSeconds(120));
    CompletableFuture<byte[]> first = new CompletableFuture<>();
    assertThat(c.begin(key(1), first)).isNull();
    now.addAndGet(Duration.ofSeconds(119).toNanos());
    assertThat(c.begin(key(1), new CompletableFuture<>())).isSameAs(first);
    // another xid, another procedure, another checksum or another client is another call
    assertThat(c.begin(key(2), new CompletableFuture<>())).isNull();
    assertThat(c.begin(new ReplyCache.Key(InetAddress.getLoopbackAddress(), 1, 100003, 3, 13, 42L),
        new CompletableFuture<>())).isNull();
    assertThat(c.begin(new ReplyCache.Key(InetAddress.getLoopbackAddress(), 1, 100003, 3, 12, 43L),
        new CompletableFuture<>())).isNull();
    assertThat(c.begin(new ReplyCache.Key(null, 1, 100003, 3, 12, 42L), new CompletableFuture<>())).isNull();
    assertThat(c.size()).isEqualTo(5);
  }

  @Test
  void anExpiredEntryRunsAgainAndStaysPastTheOldSlot() {
    ReplyCache c = cache(3, Duration.ofSeconds(120));
    CompletableFuture<byte[]> first = new CompletableFuture<>();
    assertThat(c.begin(key(1), first)).isNull(); // slot 0
    now.addAndGet(Duration.ofSeconds(120).toNanos());
    CompletableFuture<byte[]> again = new CompletableFuture<>();
    assertThat(c.begin(key(1), again)).isNull(); // expired: runs again, slot 1
    assertThat(c.begin(key(1), new CompletableFuture<>())).isSameAs(again);
    assertThat(c.begin(key(2), new CompletableFuture<>())).isNull(); // slot 2
    assertThat(c.begin(key(3), new CompletableFuture<>())).isNull(); // slot 0: pushes out the first registration only
    assertThat(c.begin(key(1), new CompletableFuture<>())).isSameAs(again);
    assertThat(c.size()).isEqualTo(3);
  }

  @Test
  void theOldestRegistrationIsPushedOutFirst() {
    ReplyCache c = cache(4, Duration.ofSeconds(120));
    List<CompletableFuture<byte[]>> replies = new ArrayList<>();
    for (int xid = 0; xid < 10; xid++) {
      CompletableFuture<byte[]> f = new CompletableFuture<>();
      replies.add(f);
      assertThat(c.begin(key(xid), f)).isNull();
      assertThat(c.size()).isEqualTo(Math.min(xid + 1, 4));
    }
    for (int xid = 6; xid < 10; xid++) {
      assertThat(c.begin(key(xid), new CompletableFuture<>())).isSameAs(replies.get(xid));
    }
    assertThat(c.begin(key(5), new CompletableFuture<>())).isNull(); // gone: runs again
  }

  @Test
  void aForgottenCallRunsAgain() {
    ReplyCache c = cache(4, Duration.ofSeconds(120));
    assertThat(c.begin(key(7), new CompletableFuture<>())).isNull();
    c.forget(key(7));
    CompletableFuture<byte[]> second = new CompletableFuture<>();
    assertThat(c.begin(key(7), second)).isNull();
    assertThat(c.begin(key(7), new CompletableFuture<>())).isSameAs(second);
  }

  @Test
  void concurrentRetransmissionsRunTheCallOnce() throws Exception {
    ReplyCache c = cache(1024, Duration.ofSeconds(120));
    int threads = 16;
    AtomicInteger ran = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<CompletableFuture<byte[]>>> got = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        got.add(pool.submit(() -> {
          start.await();
          CompletableFuture<byte[]> mine = new CompletableFuture<>();
          CompletableFuture<byte[]> first = c.begin(key(99), mine);
          if (first == null) {
            ran.incrementAndGet();
            mine.complete(new byte[] {1});
            return mine;
          }
          return first;
        }));
      }
      start.countDown();
      List<CompletableFuture<byte[]>> seen = new ArrayList<>();
      for (Future<CompletableFuture<byte[]>> f : got) {
        seen.add(f.get());
      }
      assertThat(ran).hasValue(1);
      assertThat(seen).allSatisfy(f -> assertThat(f).isSameAs(seen.get(0)));
    }
  }

  @Test
  void refusesASizeOrTtlOutOfRange() {
    assertThatThrownBy(() -> new ReplyCache(0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReplyCache(8, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
  }
}
