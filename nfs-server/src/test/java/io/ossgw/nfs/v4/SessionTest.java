package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.state.SlotTable;
import io.ossgw.nfs.v4.xdr.*;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Client records, sessions, slots and leases (RFC 8881 §2.10.6, §8.3, §18.35-18.51), driven with encoded compounds
 * through {@link Compound} on a hand-moved clock.
 */
class SessionTest {
  private final V4Wire w = new V4Wire();

  private static nfs_argop4 reclaimComplete() {
    return op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(false));
  }

  @Test
  void exchangeIdThenCreateSessionConfirmsTheClient() {
    EXCHANGE_ID4resok e = w.exchangeId(owner("linux", 1), ROOT);
    assertThat(e.flags() & Nfs4.EXCHGID4_FLAG_CONFIRMED_R).isZero();
    assertThat(e.flags() & Nfs4.EXCHGID4_FLAG_USE_NON_PNFS).isNotZero();
    assertThat(e.sequenceid()).isEqualTo(1);
    COMPOUND4res cs = w.createSession(e.clientid(), 1, attrs(200, 1 << 30), ROOT);
    CREATE_SESSION4resok ok = (CREATE_SESSION4resok) cs.resarray().getFirst().resok();
    assertThat(ok.foreChanAttrs().maxrequests()).isEqualTo(64); // capped by the server
    assertThat(ok.foreChanAttrs().maxresponsesizeCached()).isEqualTo(16 << 10); // capped by the server
    assertThat(ok.flags() & Nfs4.CREATE_SESSION4_FLAG_CONN_BACK_CHAN).isZero();
    // the same owner and verifier again: the confirmed record, same id
    EXCHANGE_ID4resok again = w.exchangeId(owner("linux", 1), ROOT);
    assertThat(again.clientid()).isEqualTo(e.clientid());
    assertThat(again.flags() & Nfs4.EXCHGID4_FLAG_CONFIRMED_R).isNotZero();
    assertThat(again.sequenceid()).isEqualTo(2);
  }

  @Test
  void createSessionRetransmissionReturnsTheSameSessionAndOtherSequencesAreMisordered() {
    EXCHANGE_ID4resok e = w.exchangeId(owner("c", 1), ROOT);
    assertThat(w.createSession(e.clientid(), 2, attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    COMPOUND4res first = w.createSession(e.clientid(), 1, attrs(4, 4096), ROOT);
    COMPOUND4res replay = w.createSession(e.clientid(), 1, attrs(4, 4096), ROOT);
    assertThat(((CREATE_SESSION4resok) replay.resarray().getFirst().resok()).sessionid())
        .isEqualTo(((CREATE_SESSION4resok) first.resarray().getFirst().resok()).sessionid());
    assertThat(w.table.sessions()).isEqualTo(1);
    assertThat(w.createSession(e.clientid(), 3, attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    assertThat(w.createSession(e.clientid(), 2, attrs(4, 4096), ROOT).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.createSession(e.clientid() + 1, 1, attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4ERR_STALE_CLIENTID);
    assertThat(w.createSession(e.clientid(), 3, attrs(4, 4096), "sys:1000").status())
        .isEqualTo(Nfs4.NFS4ERR_CLID_INUSE);
  }

  @Test
  void aRetransmissionGetsTheCachedReplyAndDoesNotRunAgain() {
    sessionid4 sid = w.newSession("c", 4);
    byte[] req = request(1, sequence(sid, 2, 1), reclaimComplete());
    byte[] reply = w.rawCall(req, ROOT);
    COMPOUND4res r = io.ossgw.nfs.xdr.Xdrs.fromBytes(reply, COMPOUND4res::decode);
    assertThat(statuses(r)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4_OK);
    // the retransmission: the very same bytes, not NFS4ERR_COMPLETE_ALREADY from a second run
    assertThat(w.rawCall(req, ROOT)).isEqualTo(reply);
    // the next request on the slot runs, and sees that the first one ran exactly once
    COMPOUND4res next = w.call(sequence(sid, 2, 2), reclaimComplete());
    assertThat(statuses(next)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4ERR_COMPLETE_ALREADY);
    // errors after SEQUENCE are cached too
    assertThat(w.call(sequence(sid, 2, 2), reclaimComplete()).status()).isEqualTo(Nfs4.NFS4ERR_COMPLETE_ALREADY);
  }

  @Test
  void sequenceIdsOtherThanTheLastOrNextAreMisordered() {
    sessionid4 sid = w.newSession("c", 4);
    assertThat(w.call(sequence(sid, 0, 0)).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED); // fresh slot: 1 first
    assertThat(w.call(sequence(sid, 0, 2)).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    assertThat(w.call(sequence(sid, 0, 1)).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(sequence(sid, 0, 3)).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    assertThat(w.call(sequence(sid, 0, 0)).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    assertThat(w.call(sequence(sid, 0, 2)).status()).isEqualTo(Nfs4.NFS4_OK);
    // slots are independent
    assertThat(w.call(sequence(sid, 3, 1)).status()).isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void slotsBeyondTheGrantedTableAreBadslot() {
    sessionid4 sid = w.newSession("c", 4);
    for (int slot : new int[] {4, 64, -1}) {
      COMPOUND4res r = w.call(sequence(sid, slot, 1));
      assertThat(r.status()).as("slot %d", slot).isEqualTo(Nfs4.NFS4ERR_BADSLOT);
    }
    SEQUENCE4resok ok = (SEQUENCE4resok) w.call(sequence(sid, 3, 1)).resarray().getFirst().resok();
    assertThat(ok.highestSlotid()).isEqualTo(3);
    assertThat(ok.targetHighestSlotid()).isEqualTo(3);
  }

  @Test
  void aDifferentRequestWithTheLastSequenceIdIsAFalseRetry() {
    sessionid4 sid = w.newSession("c", 4);
    assertThat(w.call(request("one", 1, sequence(sid, 0, 1))).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(request("two", 1, sequence(sid, 0, 1))).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_FALSE_RETRY);
    assertThat(w.call(request("one", 1, sequence(sid, 0, 1))).status()).isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void aReplyTooBigToCacheGivesRetryUncachedRep() {
    EXCHANGE_ID4resok e = w.exchangeId(owner("c", 1), ROOT);
    COMPOUND4res cs = w.createSession(e.clientid(), 1, attrs(2, 16), ROOT); // 16 bytes cached: nothing fits
    sessionid4 sid = ((CREATE_SESSION4resok) cs.resarray().getFirst().resok()).sessionid();
    byte[] req = request(1, sequence(sid, 0, 1));
    assertThat(w.call(req).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(req).status()).isEqualTo(Nfs4.NFS4ERR_RETRY_UNCACHED_REP);
    assertThat(w.call(sequence(sid, 0, 2)).status()).isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void aSlotWhoseRequestIsRunningAnswersDelay() {
    SlotTable t = new SlotTable(2);
    t.begin(0, 1, 42);
    assertThat(t.busy()).isTrue();
    assertThatThrownBy(() -> t.begin(0, 1, 42)).isInstanceOfSatisfying(Nfs4Exception.class,
        e -> assertThat(e.status()).isEqualTo(Nfs4.NFS4ERR_DELAY));
    t.complete(0, new byte[] {1, 2, 3, 4});
    assertThat(t.begin(0, 1, 42)).isInstanceOfSatisfying(SlotTable.Replay.class,
        r -> assertThat(r.reply()).containsExactly(1, 2, 3, 4));
    assertThat(t.busy()).isFalse();
  }

  @Test
  void sequenceRenewsTheLeaseAndAnExpiredClientLosesItsState() {
    sessionid4 sid = w.newSession("c", 4);
    long clientid = sid.hi();
    w.clock.advance(Duration.ofSeconds(89));
    assertThat(w.call(sequence(sid, 0, 1)).status()).isEqualTo(Nfs4.NFS4_OK);
    w.clock.advance(Duration.ofSeconds(89)); // 178 s after creation, 89 s after the renewal
    assertThat(w.call(sequence(sid, 0, 2)).status()).isEqualTo(Nfs4.NFS4_OK);
    w.clock.advance(Duration.ofSeconds(91));
    assertThat(w.call(sequence(sid, 0, 3)).status()).isEqualTo(Nfs4.NFS4ERR_BADSESSION);
    assertThat(w.table.clients()).isZero();
    assertThat(w.table.sessions()).isZero();
    assertThat(w.createSession(clientid, 2, attrs(4, 4096), ROOT).status()).isEqualTo(Nfs4.NFS4ERR_STALE_CLIENTID);
    // the client recovers with a new EXCHANGE_ID: a new, unconfirmed record
    EXCHANGE_ID4resok e = w.exchangeId(owner("c", 1), ROOT);
    assertThat(e.clientid()).isNotEqualTo(clientid);
    assertThat(e.flags() & Nfs4.EXCHGID4_FLAG_CONFIRMED_R).isZero();
  }

  @Test
  void unconfirmedClientsExpireToo() {
    w.exchangeId(owner("a", 1), ROOT);
    w.exchangeId(owner("b", 1), ROOT);
    assertThat(w.table.clients()).isEqualTo(2);
    w.clock.advance(Duration.ofSeconds(90));
    assertThat(w.table.reap()).isEqualTo(2);
    assertThat(w.table.clients()).isZero();
  }

  @Test
  void destroySessionThenDestroyClientId() {
    sessionid4 sid = w.newSession("c", 4);
    nfs_argop4 destroyClient = op(Nfs4.OP_DESTROY_CLIENTID, new DESTROY_CLIENTID4args(sid.hi()));
    assertThat(w.call(destroyClient).status()).isEqualTo(Nfs4.NFS4ERR_CLIENTID_BUSY);
    nfs_argop4 destroySession = op(Nfs4.OP_DESTROY_SESSION, new DESTROY_SESSION4args(sid));
    assertThat(w.call(destroySession).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(destroySession).status()).isEqualTo(Nfs4.NFS4ERR_BADSESSION);
    assertThat(w.call(sequence(sid, 0, 1)).status()).isEqualTo(Nfs4.NFS4ERR_BADSESSION);
    assertThat(w.call(destroyClient).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(destroyClient).status()).isEqualTo(Nfs4.NFS4ERR_STALE_CLIENTID);
    assertThat(w.table.clients()).isZero();
  }

  @Test
  void aRebootedClientKeepsItsOldSessionUntilTheNewRecordIsConfirmed() {
    sessionid4 old = w.newSession("c", 4);
    EXCHANGE_ID4resok e = w.exchangeId(owner("c", 2), ROOT); // new verifier: the client rebooted
    assertThat(e.clientid()).isNotEqualTo(old.hi());
    assertThat(w.call(sequence(old, 0, 1)).status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.createSession(e.clientid(), e.sequenceid(), attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4_OK);
    assertThat(w.call(sequence(old, 0, 2)).status()).isEqualTo(Nfs4.NFS4ERR_BADSESSION);
    assertThat(w.table.clients()).isEqualTo(1);
  }

  @Test
  void anotherPrincipalCannotTakeAnOwnerWithLiveSessions() {
    w.newSession("c", 4);
    COMPOUND4res r = w.call(request(1, op(Nfs4.OP_EXCHANGE_ID,
        new EXCHANGE_ID4args(owner("c", 1), 0, state_protect4_a.NONE, null))), "sys:1000");
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_CLID_INUSE);
    // updates: only of a confirmed record, by its principal, with its verifier
    int upd = Nfs4.EXCHGID4_FLAG_UPD_CONFIRMED_REC_A;
    assertThat(exchange(owner("nobody", 1), upd, ROOT)).isEqualTo(Nfs4.NFS4ERR_NOENT);
    assertThat(exchange(owner("c", 1), upd, "sys:1000")).isEqualTo(Nfs4.NFS4ERR_PERM);
    assertThat(exchange(owner("c", 9), upd, ROOT)).isEqualTo(Nfs4.NFS4ERR_NOT_SAME);
    assertThat(exchange(owner("c", 1), upd, ROOT)).isEqualTo(Nfs4.NFS4_OK);
    assertThat(exchange(owner("c", 1), Nfs4.EXCHGID4_FLAG_CONFIRMED_R, ROOT)).isEqualTo(Nfs4.NFS4ERR_INVAL);
  }

  @Test
  void stateProtectionOtherThanNoneIsRefusedAndBindConnAnswersForeChannel() {
    COMPOUND4res r = w.call(op(Nfs4.OP_EXCHANGE_ID,
        new EXCHANGE_ID4args(owner("c", 1), 0, new state_protect4_a(Nfs4.SP4_MACH_CRED), null)));
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(w.call(op(Nfs4.OP_EXCHANGE_ID,
        new EXCHANGE_ID4args(owner("c", 1), 0, new state_protect4_a(Nfs4.SP4_SSV), null))).status())
        .isEqualTo(Nfs4.NFS4ERR_ENCR_ALG_UNSUPP);
    assertThat(w.table.clients()).isZero();
    sessionid4 sid = w.newSession("c", 4);
    COMPOUND4res b = w.call(op(Nfs4.OP_BIND_CONN_TO_SESSION,
        new BIND_CONN_TO_SESSION4args(sid, Nfs4.CDFC4_FORE_OR_BOTH, false)));
    assertThat(((BIND_CONN_TO_SESSION4resok) b.resarray().getFirst().resok()).dir()).isEqualTo(Nfs4.CDFS4_FORE);
    assertThat(w.call(op(Nfs4.OP_BIND_CONN_TO_SESSION, new BIND_CONN_TO_SESSION4args(sid, Nfs4.CDFC4_BACK, false)))
        .status()).isEqualTo(Nfs4.NFS4ERR_INVAL);
    assertThat(w.call(op(Nfs4.OP_BIND_CONN_TO_SESSION,
        new BIND_CONN_TO_SESSION4args(new sessionid4(0, 0), Nfs4.CDFC4_FORE, false))).status())
        .isEqualTo(Nfs4.NFS4ERR_BADSESSION);
  }

  private int exchange(client_owner4 o, int flags, String principal) {
    return w.call(request(1, op(Nfs4.OP_EXCHANGE_ID, new EXCHANGE_ID4args(o, flags, state_protect4_a.NONE, null))),
        principal).status();
  }
}
