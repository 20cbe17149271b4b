package io.ossgw.core.lock;

import static io.ossgw.core.lock.LockTable.Mode.EXCLUSIVE;
import static io.ossgw.core.lock.LockTable.Mode.SHARED;
import static io.ossgw.core.lock.LockTable.TO_EOF;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.core.lock.LockTable.Lock;
import io.ossgw.core.lock.LockTable.Owner;
import io.ossgw.core.lock.LockTable.Result;
import io.ossgw.core.lock.LockTable.Status;
import io.ossgw.testsupport.Slowdown;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class LockTableTest {
  private static final FileKey F = new FileKey(1, 42);
  private static final FileKey G = new FileKey(2, 42); // same fileid, other export: another file
  private static final Owner A = new Owner("hostA", "1");
  private static final Owner A2 = new Owner("hostA", "2");
  private static final Owner B = new Owner("hostB", "1");

  private final LockTable t = new LockTable(100, 1000);

  @Test
  void exclusiveConflictsAcrossOwnersNotWithItself() {
    assertThat(t.lock(F, A, EXCLUSIVE, 0, 99).status()).isEqualTo(Status.GRANTED);
    Result r = t.lock(F, B, SHARED, 50, 50);
    assertThat(r.status()).isEqualTo(Status.CONFLICT);
    assertThat(r.holder()).isEqualTo(new Lock(A, EXCLUSIVE, 0, 99));
    assertThat(t.lock(F, A2, SHARED, 99, 200).status()).isEqualTo(Status.CONFLICT); // another owner of one client
    assertThat(t.lock(F, A, EXCLUSIVE, 10, 20).status()).isEqualTo(Status.GRANTED);
    assertThat(t.lock(F, B, EXCLUSIVE, 100, TO_EOF).status()).isEqualTo(Status.GRANTED);
    assertThat(t.lock(G, B, EXCLUSIVE, 0, TO_EOF).status()).isEqualTo(Status.GRANTED);
  }

  @Test
  void sharedLocksCoexist() {
    assertThat(t.lock(F, A, SHARED, 0, TO_EOF).status()).isEqualTo(Status.GRANTED);
    assertThat(t.lock(F, B, SHARED, 5, 9).status()).isEqualTo(Status.GRANTED);
    assertThat(t.lock(F, B, EXCLUSIVE, 5, 9).holder()).isEqualTo(new Lock(A, SHARED, 0, TO_EOF)); // no upgrade
    assertThat(t.test(F, B, SHARED, 0, TO_EOF)).isNull();
    assertThat(t.test(F, B, EXCLUSIVE, 100, 100)).isEqualTo(new Lock(A, SHARED, 0, TO_EOF));
    assertThat(t.test(F, A, EXCLUSIVE, 100, 100)).isNull();
  }

  @Test
  void unlockInTheMiddleSplits() {
    t.lock(F, A, EXCLUSIVE, 0, 99);
    assertThat(t.unlock(F, A, 40, 59).status()).isEqualTo(Status.GRANTED);
    assertThat(t.locks(F)).containsExactly(new Lock(A, EXCLUSIVE, 0, 39), new Lock(A, EXCLUSIVE, 60, 99));
    assertThat(t.lock(F, B, EXCLUSIVE, 40, 59).status()).isEqualTo(Status.GRANTED);
    assertThat(t.size()).isEqualTo(3);
    assertThat(t.unlock(F, B, 0, TO_EOF).status()).isEqualTo(Status.GRANTED);
    assertThat(t.unlock(F, A, 0, 49).status()).isEqualTo(Status.GRANTED); // its own lock only: trims 0-39
    assertThat(t.locks(F)).containsExactly(new Lock(A, EXCLUSIVE, 60, 99));
  }

  @Test
  void adjacentAndOverlappingLocksOfOneOwnerMerge() {
    t.lock(F, A, SHARED, 0, 9);
    t.lock(F, A, SHARED, 10, 19);
    t.lock(F, A, SHARED, 15, 30);
    assertThat(t.locks(F)).containsExactly(new Lock(A, SHARED, 0, 30));
    assertThat(t.size()).isEqualTo(1);
  }

  @Test
  void upgradeAndDowngradeInPlace() {
    t.lock(F, A, SHARED, 0, 99);
    assertThat(t.lock(F, A, EXCLUSIVE, 20, 29).status()).isEqualTo(Status.GRANTED);
    assertThat(t.locks(F)).containsExactly(new Lock(A, SHARED, 0, 19), new Lock(A, EXCLUSIVE, 20, 29),
        new Lock(A, SHARED, 30, 99));
    assertThat(t.lock(F, B, SHARED, 25, 25).status()).isEqualTo(Status.CONFLICT);
    assertThat(t.lock(F, A, SHARED, 20, 29).status()).isEqualTo(Status.GRANTED); // downgrade merges back
    assertThat(t.locks(F)).containsExactly(new Lock(A, SHARED, 0, 99));
    assertThat(t.lock(F, B, SHARED, 25, 25).status()).isEqualTo(Status.GRANTED);
  }

  @Test
  void lengthZeroMeansToEndOfFile() {
    assertThat(LockTable.end(100, 0)).isEqualTo(TO_EOF);
    assertThat(LockTable.end(100, 1)).isEqualTo(100);
    assertThat(LockTable.end(10, Long.MAX_VALUE)).isEqualTo(TO_EOF); // past 2^63-1: clamped
    assertThat(LockTable.end(0, -1)).isEqualTo(TO_EOF); // unsigned all-ones (NFSv4's "to EOF")
    assertThatThrownBy(() -> LockTable.end(-1, 1)).isInstanceOf(IllegalArgumentException.class);
    t.lock(F, A, EXCLUSIVE, 1_000_000, LockTable.end(1_000_000, 0));
    assertThat(t.test(F, B, SHARED, Long.MAX_VALUE - 1, Long.MAX_VALUE - 1)).isNotNull();
    assertThat(t.test(F, B, SHARED, 0, 999_999)).isNull();
  }

  @Test
  void releaseClientDropsEveryLockOfItsOwners() {
    t.lock(F, A, EXCLUSIVE, 0, 9);
    t.lock(F, A2, EXCLUSIVE, 10, 19);
    t.lock(G, A, SHARED, 0, 9);
    t.lock(F, B, EXCLUSIVE, 20, 29);
    assertThat(t.releaseClient("hostA")).isEqualTo(3);
    assertThat(t.locks(F)).containsExactly(new Lock(B, EXCLUSIVE, 20, 29));
    assertThat(t.locks(G)).isEmpty();
    assertThat(t.size()).isEqualTo(1);
    assertThat(t.releaseClient("nobody")).isZero();
  }

  @Test
  void capsRefuseWithNoLocksAndChangeNothing() {
    LockTable small = new LockTable(2, 3);
    assertThat(small.lock(F, A, EXCLUSIVE, 0, 0).status()).isEqualTo(Status.GRANTED);
    assertThat(small.lock(F, A, EXCLUSIVE, 2, 2).status()).isEqualTo(Status.GRANTED);
    assertThat(small.lock(F, A2, EXCLUSIVE, 4, 4).status()).isEqualTo(Status.NO_LOCKS); // per client
    assertThat(small.lock(F, A, EXCLUSIVE, 1, 1).status()).isEqualTo(Status.GRANTED); // merges: 1 record
    assertThat(small.lock(F, B, EXCLUSIVE, 10, 10).status()).isEqualTo(Status.GRANTED);
    assertThat(small.lock(F, B, EXCLUSIVE, 12, 12).status()).isEqualTo(Status.GRANTED);
    assertThat(small.lock(G, A, EXCLUSIVE, 0, 0).status()).isEqualTo(Status.NO_LOCKS); // total of 3
    // an unlock that splits needs a record too: refused, the lock stays whole
    assertThat(small.unlock(F, A, 1, 1).status()).isEqualTo(Status.NO_LOCKS);
    assertThat(small.locks(F)).contains(new Lock(A, EXCLUSIVE, 0, 2));
    assertThat(small.unlock(F, A, 0, 0).status()).isEqualTo(Status.GRANTED); // trimming needs none
    assertThat(small.size()).isEqualTo(3);
  }

  @Test
  void waitingLockIsGrantedWhenTheHolderUnlocks() throws Exception {
    t.lock(F, A, EXCLUSIVE, 0, TO_EOF);
    CompletableFuture<Result> waiting = CompletableFuture.supplyAsync(() -> lockWaiting(B, Duration.ofMinutes(1)));
    awaitWaiters(1);
    assertThat(waiting).isNotDone();
    t.unlock(F, A, 0, TO_EOF);
    assertThat(waiting.get().status()).isEqualTo(Status.GRANTED);
    assertThat(t.locks(F)).containsExactly(new Lock(B, EXCLUSIVE, 0, 99));
    assertThat(t.waiting()).isZero();
  }

  @Test
  void waitingLockEndsAtItsTimeoutWithTheConflict() {
    t.lock(F, A, EXCLUSIVE, 0, TO_EOF);
    Result r = lockWaiting(B, Duration.ofMillis(20));
    assertThat(r.status()).isEqualTo(Status.CONFLICT);
    assertThat(t.waiting()).isZero();
  }

  @Test
  void cancelAndReleaseClientEndAWait() throws Exception {
    t.lock(F, A, EXCLUSIVE, 0, TO_EOF);
    CompletableFuture<Result> w1 = CompletableFuture.supplyAsync(() -> lockWaiting(B, Duration.ofMinutes(1)));
    awaitWaiters(1);
    assertThat(t.cancel(F, A, 0, TO_EOF)).isZero(); // another owner's request is not touched
    assertThat(t.cancel(F, B, 50, 50)).isEqualTo(1);
    assertThat(w1.get().status()).isEqualTo(Status.CANCELLED);
    CompletableFuture<Result> w2 = CompletableFuture.supplyAsync(() -> lockWaiting(B, Duration.ofMinutes(1)));
    awaitWaiters(1);
    t.releaseClient("hostB");
    assertThat(w2.get().status()).isEqualTo(Status.CANCELLED);
    assertThat(t.locks(F)).containsExactly(new Lock(A, EXCLUSIVE, 0, TO_EOF));
  }

  @Test
  void badRangesAreRefused() {
    assertThatThrownBy(() -> t.lock(F, A, SHARED, 10, 9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> t.unlock(F, A, -1, 9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LockTable(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  private Result lockWaiting(Owner o, Duration wait) {
    try {
      return t.lock(F, o, EXCLUSIVE, 0, 99, wait);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void noneGrantsNothingAndHoldsNothing() throws InterruptedException {
    LockTable none = LockTable.none();
    assertThat(none.lock(F, A, EXCLUSIVE, 0, TO_EOF).status()).isEqualTo(Status.NO_LOCKS);
    assertThat(none.lock(F, B, SHARED, 0, 0, Duration.ofSeconds(1)).status()).isEqualTo(Status.NO_LOCKS);
    assertThat(none.test(F, B, EXCLUSIVE, 0, TO_EOF)).isNull();
    assertThat(none.unlock(F, A, 0, TO_EOF).status()).isEqualTo(Status.GRANTED);
    assertThat(none.size()).isZero();
    assertThat(none.locks(F)).isEmpty();
  }

  /** Waits (bounded) until the waiter is registered, so the test acts while it really waits. */
  private void awaitWaiters(int n) throws InterruptedException {
    assertThat(Slowdown.waitUntil(() -> t.waiting() >= n, Duration.ofSeconds(10))).as("%d waiting", n).isTrue();
  }
}
