package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.xdr.*;
import io.ossgw.testsupport.Slowdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcAcceptedException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NLM v4 (program 100021) through oncrpc4j's RPC client over TCP, on the NFS port, against the server over an engine
 * over the OSS emulator: the XDR is written here by hand from RFC 1813 appendix II, independently of the server's.
 * Every test locks its own file.
 */
class NlmTest {
  static final int NLM = 100021;
  static final int TEST = 1, LOCK = 2, CANCEL = 3, UNLOCK = 4, GRANTED = 5, LOCK_MSG = 7, SHARE = 20, NM_LOCK = 22,
      FREE_ALL = 23;
  static final int NLM4_GRANTED = 0, NLM4_DENIED = 1, NLM4_DENIED_GRACE_PERIOD = 4, NLM4_STALE_FH = 7,
      NLM4_FBIG = 8, NLM4_FAILED = 9;
  /** How long the server holds a blocked request (2 s of a quiet machine, scaled: the test must unlock within it). */
  static final Duration WAIT = Slowdown.scaled(Duration.ofSeconds(2));
  /** Lock records per client. */
  static final int CAP = 200;

  @TempDir
  static Path state;
  static NfsGateway gw;
  static NfsClient a;
  static NfsClient b;
  static nfs_fh3 root;

  /** An NLM lock owner: caller_name, svid and owner handle as the Linux client makes them ("svid@host"). */
  record Who(String host, int svid) {
    byte[] oh() {
      return (svid + "@" + host).getBytes(StandardCharsets.US_ASCII);
    }
  }

  static final Who A = new Who("hosta", 101);
  static final Who B = new Who("hostb", 202);

  @BeforeAll
  static void start() {
    gw = NfsGateway.withLocks(state, WAIT, new LockTable(CAP, 100_000));
    a = new NfsClient(gw.port(), 1000, 1000);
    b = new NfsClient(gw.port(), 1000, 1000); // another connection, as another client host would use
    root = a.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    a.close();
    b.close();
    gw.close();
  }

  static nfs_fh3 file(String name) {
    CREATE3res r = a.create(root, name, 0644);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  // --- hand-written XDR of the arguments ---

  static void lock(XdrWriter w, Who who, byte[] fh, long offset, long length) {
    w.string(who.host()).opaque(fh).opaque(who.oh()).int32(who.svid()).int64(offset).int64(length);
  }

  static int lock(NfsClient c, Who who, nfs_fh3 fh, boolean block, boolean exclusive, long offset, long length,
      int state) {
    return c.call(NLM, 4, LOCK, w -> {
      w.opaque(new byte[] {1, 2, 3, 4}).bool(block).bool(exclusive);
      lock(w, who, fh.data(), offset, length);
      w.bool(false).int32(state);
    }, NlmTest::res);
  }

  static int lock(NfsClient c, Who who, nfs_fh3 fh, boolean block, long offset, long length) {
    return lock(c, who, fh, block, true, offset, length, 1);
  }

  static int unlock(NfsClient c, Who who, nfs_fh3 fh, long offset, long length) {
    return c.call(NLM, 4, UNLOCK, w -> {
      w.opaque(new byte[] {9});
      lock(w, who, fh.data(), offset, length);
    }, NlmTest::res);
  }

  static int cancel(NfsClient c, Who who, nfs_fh3 fh, long offset, long length) {
    return c.call(NLM, 4, CANCEL, w -> {
      w.opaque(new byte[0]).bool(true).bool(true);
      lock(w, who, fh.data(), offset, length);
    }, NlmTest::res);
  }

  /** nlm4_res: the cookie sent is echoed; returns the stat. */
  static int res(XdrReader r) {
    r.opaque(1024);
    return r.int32();
  }

  /** TEST: {stat} or {stat, exclusive, svid, offset, length} and the holder's owner handle. */
  record TestRes(int stat, boolean exclusive, int svid, String oh, long offset, long length) {}

  static TestRes test(NfsClient c, Who who, nfs_fh3 fh, boolean exclusive, long offset, long length) {
    return c.call(NLM, 4, TEST, w -> {
      w.opaque(new byte[] {7, 7}).bool(exclusive);
      lock(w, who, fh.data(), offset, length);
    }, r -> {
      assertThat(r.opaque(1024)).containsExactly(7, 7);
      int stat = r.int32();
      if (stat != NLM4_DENIED) {
        return new TestRes(stat, false, 0, null, 0, 0);
      }
      boolean ex = r.bool();
      int svid = r.int32();
      String oh = new String(r.opaque(1024), StandardCharsets.US_ASCII);
      return new TestRes(stat, ex, svid, oh, r.int64(), r.int64());
    });
  }

  // --- tests ---

  @Test
  void twoOwnersConflictTestReportsTheHolderAndUnlockSplits() {
    nfs_fh3 f = file("conflict");
    assertThat(lock(a, A, f, false, 0, 100)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, 50, 1)).isEqualTo(NLM4_DENIED);
    assertThat(test(b, B, f, false, 0, 0)).isEqualTo(new TestRes(NLM4_DENIED, true, 101, "101@hosta", 0, 100));
    assertThat(test(a, A, f, true, 0, 0).stat()).isEqualTo(NLM4_GRANTED); // its own lock never conflicts
    assertThat(test(b, B, f, true, 100, 0).stat()).isEqualTo(NLM4_GRANTED);
    // unlock the middle: A keeps 0-39 and 60-99, B gets 40-59 and not 60
    assertThat(unlock(a, A, f, 40, 20)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, 40, 20)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, 60, 1)).isEqualTo(NLM4_DENIED);
    assertThat(test(b, B, f, false, 55, 10)).isEqualTo(new TestRes(NLM4_DENIED, true, 101, "101@hosta", 60, 40));
    // shared locks of both owners coexist on A's released range
    assertThat(unlock(a, A, f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(unlock(b, B, f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(a, A, f, false, false, 0, 0, 1)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, false, 0, 0, 1)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, true, 0, 0, 1)).isEqualTo(NLM4_DENIED);
  }

  @Test
  void aBlockedLockIsGrantedAsSoonAsTheHolderUnlocks() throws Exception {
    nfs_fh3 f = file("blocked");
    assertThat(lock(a, A, f, false, 0, 0)).isEqualTo(NLM4_GRANTED);
    int waitingBefore = gw.server.locks().waiting();
    CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> lock(b, B, f, true, 0, 0));
    awaitWaiting(waitingBefore + 1);
    long t0 = System.nanoTime();
    assertThat(unlock(a, A, f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(blocked.get(Slowdown.scaledMillis(10_000), TimeUnit.MILLISECONDS)).isEqualTo(NLM4_GRANTED);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(WAIT);
    assertThat(lock(a, A, f, false, 0, 0)).isEqualTo(NLM4_DENIED);
  }

  @Test
  void aBlockedLockStillHeldAfterTheWaitIsToldToAskAgain() {
    nfs_fh3 f = file("still-held");
    assertThat(lock(a, A, f, false, 0, 0)).isEqualTo(NLM4_GRANTED);
    long t0 = System.nanoTime();
    // the Linux client re-sends within 5 s on DENIED_GRACE_PERIOD (30 s on BLOCKED, there being no callback)
    assertThat(lock(b, B, f, true, 0, 0)).isEqualTo(NLM4_DENIED_GRACE_PERIOD);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(WAIT);
  }

  @Test
  void cancelEndsAWaitingLockAndTakesNothing() throws Exception {
    nfs_fh3 f = file("cancel");
    assertThat(lock(a, A, f, false, 0, 10)).isEqualTo(NLM4_GRANTED);
    assertThat(cancel(b, B, f, 0, 10)).isEqualTo(NLM4_DENIED); // nothing pending
    int waitingBefore = gw.server.locks().waiting();
    CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> lock(b, B, f, true, 0, 10));
    awaitWaiting(waitingBefore + 1);
    assertThat(cancel(a, B, f, 0, 10)).isEqualTo(NLM4_GRANTED);
    assertThat(blocked.get(Slowdown.scaledMillis(10_000), TimeUnit.MILLISECONDS)).isEqualTo(NLM4_DENIED);
    assertThat(unlock(a, A, f, 0, 10)).isEqualTo(NLM4_GRANTED);
    assertThat(test(a, A, f, true, 0, 0).stat()).isEqualTo(NLM4_GRANTED); // B holds nothing
  }

  @Test
  void freeAllAndANewNsmStateReleaseAClientsLocks() {
    nfs_fh3 f = file("free-all");
    nfs_fh3 g = file("free-all-2");
    Who a2 = new Who(A.host(), 102);
    assertThat(lock(a, A, f, false, true, 0, 10, 7)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(a, a2, g, false, true, 0, 0, 7)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, 0, 1)).isEqualTo(NLM4_DENIED);
    a.call(NLM, 4, FREE_ALL, w -> w.string(A.host()).int32(8), r -> null);
    assertThat(lock(b, B, f, false, 0, 1)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, g, false, 0, 1)).isEqualTo(NLM4_GRANTED);
    assertThat(unlock(b, B, f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(unlock(b, B, g, 0, 0)).isEqualTo(NLM4_GRANTED);
    // the client's NSM state changes only when it reboots: its locks from before are gone
    assertThat(lock(a, A, f, false, true, 0, 10, 9)).isEqualTo(NLM4_GRANTED);
    assertThat(lock(b, B, f, false, 0, 1)).isEqualTo(NLM4_DENIED);
    assertThat(lock(a, a2, g, false, true, 0, 0, 11)).isEqualTo(NLM4_GRANTED); // state 9 -> 11: A's lock on f goes
    assertThat(lock(b, B, f, false, 0, 1)).isEqualTo(NLM4_GRANTED);
  }

  @Test
  void badHandlesAndOffsetsGetTheirNlmStatus() {
    nfs_fh3 f = file("bad");
    byte[] forged = f.data().clone();
    forged[forged.length - 1] ^= 1;
    assertThat(lock(a, A, new nfs_fh3(forged), false, 0, 0)).isEqualTo(NLM4_STALE_FH);
    assertThat(lock(a, A, new nfs_fh3(new byte[] {1, 2, 3}), false, 0, 0)).isEqualTo(NLM4_STALE_FH);
    assertThat(a.nfs(Nfs3.NFSPROC3_REMOVE, new REMOVE3args(new diropargs3(root, "bad")), REMOVE3res::decode)
        .status()).isEqualTo(nfsstat3.NFS3_OK);
    assertThat(lock(a, A, f, false, 0, 0)).isEqualTo(NLM4_STALE_FH); // removed
    nfs_fh3 g = file("bad-offset");
    assertThat(lock(a, A, g, false, 1L << 63, 1)).isEqualTo(NLM4_FBIG);
    // a range past 2^63-1 is "to end of file"
    assertThat(lock(a, A, g, false, (1L << 62), -1L)).isEqualTo(NLM4_GRANTED);
    assertThat(test(b, B, g, false, Long.MAX_VALUE - 1, 1).stat()).isEqualTo(NLM4_DENIED);
  }

  @Test
  void malformedArgumentsAreGarbageAndTheConnectionGoesOn() throws Exception {
    // a LOCK of just a cookie
    assertThatThrownBy(() -> a.call(NLM, 4, LOCK, w -> w.opaque(new byte[4]), NlmTest::res))
        .hasCauseInstanceOf(OncRpcAcceptedException.class).cause().hasMessage("GARBAGE_ARGS");
    // a caller name claiming 2^31-1 bytes
    assertThatThrownBy(() -> a.call(NLM, 4, TEST, w -> w.opaque(new byte[0]).bool(true).int32(Integer.MAX_VALUE),
        NlmTest::res)).cause().hasMessage("GARBAGE_ARGS");
    // a bool that is 7
    nfs_fh3 f = file("garbage");
    assertThatThrownBy(() -> a.call(NLM, 4, LOCK, w -> {
      w.opaque(new byte[0]).int32(7).bool(true);
      lock(w, A, f.data(), 0, 0);
      w.bool(false).int32(1);
    }, NlmTest::res)).cause().hasMessage("GARBAGE_ARGS");
    a.ping(NLM, 4);
    assertThat(lock(a, A, f, false, 0, 0)).isEqualTo(NLM4_GRANTED);
  }

  @Test
  void otherVersionsAndProceduresAreRefusedAsRpcSays() {
    // the Linux client speaks NLM v4 with NFSv3 (v1 only with NFSv2): v1 and v3 are told 4..4
    for (int v : new int[] {1, 3}) {
      assertThatThrownBy(() -> a.ping(NLM, v)).isInstanceOf(OncRpcAcceptedException.class)
          .hasMessage("PROG_MISMATCH");
    }
    assertThatThrownBy(() -> a.callVoid(NLM, 4, LOCK_MSG)).hasMessage("PROC_UNAVAIL");
    nfs_fh3 f = file("share");
    int share = a.call(NLM, 4, SHARE, w -> w.opaque(new byte[] {5}).string(A.host()).opaque(f.data())
        .opaque(A.oh()).int32(3).int32(3).bool(false), r -> {
          r.opaque(1024);
          return r.int32();
        });
    assertThat(share).isEqualTo(NLM4_FAILED);
    // GRANTED is the server's callback to a client: refused
    int granted = a.call(NLM, 4, GRANTED, w -> {
      w.opaque(new byte[0]).bool(true);
      lock(w, A, f.data(), 0, 0);
    }, NlmTest::res);
    assertThat(granted).isEqualTo(NLM4_DENIED);
    assertThat(a.call(NLM, 4, NM_LOCK, w -> {
      w.opaque(new byte[0]).bool(true).bool(true);
      lock(w, A, f.data(), 0, 0);
      w.bool(false).int32(0);
    }, NlmTest::res)).isEqualTo(NLM4_GRANTED);
  }

  @Test
  void authNoneIsRefusedAsByNfsOnAnExportWithoutAllSquash() {
    nfs_fh3 f = file("anon");
    try (NfsClient anon = new NfsClient(gw.port(), 1000, 1000).asNone()) {
      assertThatThrownBy(() -> lock(anon, A, f, false, 0, 0)).hasMessageContaining("AUTH_ERROR");
    }
    assertThat(test(b, B, f, true, 0, 0).stat()).isEqualTo(NLM4_GRANTED); // nothing was taken
  }

  @Test
  void theCapOnLocksPerClientAnswersDeniedNolocks() {
    // each of these disjoint byte locks is a record: one more than the cap is refused
    nfs_fh3 f = file("cap");
    LockTable t = gw.server.locks();
    int before = t.size();
    int st = 0;
    int n = 0;
    for (; n <= CAP && st == NLM4_GRANTED; n++) {
      st = lock(a, new Who("caphost", 1), f, false, 2L * n, 1);
    }
    assertThat(st).isEqualTo(2); // NLM4_DENIED_NOLOCKS
    assertThat(n).isEqualTo(CAP + 1);
    assertThat(unlock(a, new Who("caphost", 1), f, 0, 0)).isEqualTo(NLM4_GRANTED);
    assertThat(t.size()).isEqualTo(before);
  }

  private static void awaitWaiting(int n) throws InterruptedException {
    assertThat(Slowdown.waitUntil(() -> gw.server.locks().waiting() >= n, Duration.ofSeconds(10)))
        .as("a request waiting on the server").isTrue();
  }
}
