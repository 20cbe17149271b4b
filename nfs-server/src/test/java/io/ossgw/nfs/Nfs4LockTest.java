package io.ossgw.nfs;

import static io.ossgw.nfs.Nfs4LockClient.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.CREATE3res;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.nfsstat3;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFSv4.1 byte-range locks (LOCK, LOCKT, LOCKU, TEST_STATEID, FREE_STATEID, CLOSE with locks) over TCP against the
 * server over an engine over the OSS emulator, with two v4.1 clients and an NLM (v3) client contending in the one lock
 * table. Every test uses its own file.
 */
class Nfs4LockTest {
  static final int BOTH = Nfs4.OPEN4_SHARE_ACCESS_BOTH;

  @TempDir
  static Path state;
  static NfsGateway gw;
  static NfsClient v3;
  static nfs_fh3 root;

  @BeforeAll
  static void start() {
    gw = NfsGateway.withServer(state, b -> b.nfsV41(true));
    v3 = new NfsClient(gw.port(), 0, 0);
    root = v3.root("/" + NfsGateway.BUCKET);
  }

  @AfterAll
  static void stop() {
    v3.close();
    gw.close();
  }

  static nfs_fh3 file(String name) {
    CREATE3res r = v3.create(root, name, 0666);
    assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
    return r.obj();
  }

  static Nfs4LockClient client(String owner) {
    return new Nfs4LockClient(gw.port(), owner);
  }

  static int status(COMPOUND4res r) {
    return r.status();
  }

  static stateid4 lockid(COMPOUND4res r) {
    assertThat(r.status()).as("LOCK/LOCKU").isEqualTo(Nfs4.NFS4_OK);
    return (stateid4) last(r).resok();
  }

  static LOCK4denied denied(COMPOUND4res r) {
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_DENIED);
    return (LOCK4denied) last(r).resok();
  }

  static String owner(LOCK4denied d) {
    return new String(d.owner().owner(), StandardCharsets.UTF_8);
  }

  @Test
  void twoClientsContendAndLocktShowsTheHolder() {
    byte[] f = file("contend").data();
    try (Nfs4LockClient c1 = client("host-1"); Nfs4LockClient c2 = client("host-2")) {
      stateid4 o1 = c1.openFile(f, "p1", BOTH);
      stateid4 o2 = c2.openFile(f, "p2", BOTH);
      stateid4 l1 = lockid(c1.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 100, o1, "lo1", false)));
      assertThat(l1.seqid()).isEqualTo(1);

      LOCK4denied d = denied(c2.call(putfh(f), lockNew(Nfs4.READ_LT, 50, 10, o2, "lo2", false)));
      assertThat(d.offset()).isZero();
      assertThat(d.length()).isEqualTo(100);
      assertThat(d.locktype()).isEqualTo(Nfs4.WRITE_LT);
      assertThat(d.owner().clientid()).isEqualTo(c1.clientid);
      assertThat(owner(d)).isEqualTo("lo1");
      // the waiting forms do not wait on the server: denied at once, the client polls
      denied(c2.call(putfh(f), lockNew(Nfs4.WRITEW_LT, 99, 1, o2, "lo2", false)));

      stateid4 l2 = lockid(c2.call(putfh(f), lockNew(Nfs4.READ_LT, 100, 10, o2, "lo2", false)));
      assertThat(l2.seqid()).isEqualTo(1);
      // LOCKT: another owner sees the first conflicting lock; the holder's own owner sees none of its own
      d = denied(c2.call(putfh(f), lockt(Nfs4.WRITE_LT, 0, -1L, "lo2")));
      assertThat(d.owner().clientid()).isEqualTo(c1.clientid);
      assertThat(status(c1.call(putfh(f), lockt(Nfs4.WRITE_LT, 0, 100, "lo1")))).isEqualTo(Nfs4.NFS4_OK);
      d = denied(c1.call(putfh(f), lockt(Nfs4.WRITE_LT, 0, -1L, "lo1")));
      assertThat(d.owner().clientid()).isEqualTo(c2.clientid);
      assertThat(d.locktype()).isEqualTo(Nfs4.READ_LT);
      // read locks share
      stateid4 l1b = lockid(c1.call(putfh(f), lockNew(Nfs4.READ_LT, 105, 1, o1, "lo1b", false)));
      assertThat(l1b).isNotEqualTo(l1);

      stateid4 u1 = lockid(c1.call(putfh(f), locku(0, 100, l1)));
      assertThat(u1.seqid()).isEqualTo(2);
      assertThat(u1.sameOther(l1)).isTrue();
      stateid4 l2b = lockid(c2.call(putfh(f), lock(Nfs4.WRITE_LT, 50, 10, l2)));
      assertThat(l2b.seqid()).isEqualTo(2);
      assertThat(l2b.sameOther(l2)).isTrue();
      // an upgrade of part of the owner's own read lock is done in place (never NFS4ERR_LOCK_RANGE)
      assertThat(status(c2.call(putfh(f), lock(Nfs4.WRITE_LT, 104, 2, l2b)))).isEqualTo(Nfs4.NFS4ERR_DENIED); // lo1b reads 105
      assertThat(lockid(c2.call(putfh(f), lock(Nfs4.WRITE_LT, 107, 3, l2b))).seqid()).isEqualTo(3);
      // the old seqid is refused
      assertThat(status(c2.call(putfh(f), lock(Nfs4.READ_LT, 0, 1, l2)))).isEqualTo(Nfs4.NFS4ERR_OLD_STATEID);
    }
  }

  @Test
  void anNlmClientAndAV4ClientContendOnOneFile() {
    nfs_fh3 fh = file("mixed");
    byte[] f = fh.data();
    NlmTest.Who nlm = new NlmTest.Who("hostv3", 77);
    assertThat(NlmTest.lock(v3, nlm, fh, false, true, 0, 100, 1)).isEqualTo(NlmTest.NLM4_GRANTED);
    try (Nfs4LockClient c = client("host-v4")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      LOCK4denied d = denied(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 10, 1, o, "lo", false)));
      assertThat(d.owner().clientid()).isZero();
      assertThat(owner(d)).startsWith("nlm:hostv3@127.0.0.1:77:");
      assertThat(d.offset()).isZero();
      assertThat(d.length()).isEqualTo(100);
      assertThat(owner(denied(c.call(putfh(f), lockt(Nfs4.READ_LT, 99, 1, "lo"))))).startsWith("nlm:hostv3@");

      assertThat(NlmTest.unlock(v3, nlm, fh, 0, 100)).isEqualTo(NlmTest.NLM4_GRANTED);
      stateid4 l = lockid(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 10, 1, o, "lo", false)));
      assertThat(NlmTest.lock(v3, nlm, fh, false, true, 0, 0, 1)).isEqualTo(NlmTest.NLM4_DENIED);
      NlmTest.TestRes t = NlmTest.test(v3, nlm, fh, false, 0, 0);
      assertThat(t.stat()).isEqualTo(NlmTest.NLM4_DENIED);
      assertThat(t.offset()).isEqualTo(10);
      assertThat(t.length()).isEqualTo(1);

      lockid(c.call(putfh(f), locku(0, -1L, l)));
      assertThat(NlmTest.lock(v3, nlm, fh, false, true, 0, 0, 1)).isEqualTo(NlmTest.NLM4_GRANTED);
      assertThat(NlmTest.unlock(v3, nlm, fh, 0, 0)).isEqualTo(NlmTest.NLM4_GRANTED);
    }
  }

  @Test
  void rangesOpenModesAndStateidsAreChecked() {
    byte[] f = file("ranges").data();
    byte[] other = file("ranges-other").data();
    try (Nfs4LockClient c = client("host-r")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      stateid4 ro = c.openFile(f, "reader", Nfs4.OPEN4_SHARE_ACCESS_READ);
      assertThat(status(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 0, o, "a", false)))).isEqualTo(Nfs4.NFS4ERR_INVAL);
      assertThat(status(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 11, -10L, o, "a", false))))
          .isEqualTo(Nfs4.NFS4ERR_INVAL); // ends past 2^64-1
      assertThat(status(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 1L << 63, 1, o, "a", false))))
          .isEqualTo(Nfs4.NFS4ERR_BAD_RANGE);
      stateid4 l = lockid(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 10, -10L, o, "a", false))); // ends at 2^64-1
      LOCK4denied d = denied(c.call(putfh(f), lockt(Nfs4.READ_LT, Long.MAX_VALUE, 1, "other")));
      assertThat(d.offset()).isEqualTo(10);
      assertThat(d.length()).isEqualTo(-1L); // to the end of the file
      assertThat(status(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 1, ro, "b", false))))
          .isEqualTo(Nfs4.NFS4ERR_OPENMODE);
      assertThat(status(c.call(putfh(other), lock(Nfs4.WRITE_LT, 0, 1, l)))).isEqualTo(Nfs4.NFS4ERR_BAD_STATEID);
      assertThat(status(c.call(putfh(other), locku(0, 1, l)))).isEqualTo(Nfs4.NFS4ERR_BAD_STATEID);
      assertThat(status(c.call(putfh(f), lock(Nfs4.WRITE_LT, 0, 1, o)))).isEqualTo(Nfs4.NFS4ERR_BAD_STATEID);
      assertThat(status(c.call(op(Nfs4.OP_PUTROOTFH, null), lockt(Nfs4.WRITE_LT, 0, 1, "a"))))
          .isEqualTo(Nfs4.NFS4ERR_ISDIR);
      assertThat(status(c.call(lockt(Nfs4.WRITE_LT, 0, 1, "a")))).isEqualTo(Nfs4.NFS4ERR_NOFILEHANDLE);
    }
  }

  @Test
  void testStateidFreeStateidAndCloseWithLocks() {
    byte[] f = file("stateids").data();
    try (Nfs4LockClient c = client("host-s"); Nfs4LockClient other = client("host-o")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      stateid4 l1 = lockid(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 10, o, "lo", false)));
      stateid4 l2 = lockid(c.call(putfh(f), lock(Nfs4.WRITE_LT, 20, 10, l1)));
      stateid4 oo = other.openFile(f, "q", BOTH);
      stateid4 ol = lockid(other.call(putfh(f), lockNew(Nfs4.READ_LT, 50, 1, oo, "x", false)));

      TEST_STATEID4resok t = (TEST_STATEID4resok) last(c.call(testStateid(l2, l1, l2.withSeqid(0), o, ol,
          stateid4.ANONYMOUS, stateid4.BYPASS, l2.withSeqid(9)))).resok();
      assertThat(t.statusCodes()).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4ERR_OLD_STATEID, Nfs4.NFS4_OK, Nfs4.NFS4_OK,
          Nfs4.NFS4ERR_BAD_STATEID, Nfs4.NFS4ERR_BAD_STATEID, Nfs4.NFS4ERR_BAD_STATEID, Nfs4.NFS4ERR_BAD_STATEID);

      assertThat(status(c.call(freeStateid(l2)))).isEqualTo(Nfs4.NFS4ERR_LOCKS_HELD);
      assertThat(status(c.call(freeStateid(o)))).isEqualTo(Nfs4.NFS4ERR_LOCKS_HELD);
      assertThat(status(c.call(freeStateid(ol)))).isEqualTo(Nfs4.NFS4ERR_BAD_STATEID); // another client's
      assertThat(status(c.call(freeStateid(l1)))).isEqualTo(Nfs4.NFS4ERR_OLD_STATEID);
      assertThat(status(c.call(putfh(f), close(o)))).isEqualTo(Nfs4.NFS4ERR_LOCKS_HELD);

      stateid4 u = lockid(c.call(putfh(f), locku(0, -1L, l2)));
      assertThat(status(c.call(freeStateid(u)))).isEqualTo(Nfs4.NFS4_OK);
      assertThat(((TEST_STATEID4resok) last(c.call(testStateid(u))).resok()).statusCodes())
          .containsExactly(Nfs4.NFS4ERR_BAD_STATEID);
      assertThat(status(c.call(putfh(f), lock(Nfs4.WRITE_LT, 0, 1, u)))).isEqualTo(Nfs4.NFS4ERR_BAD_STATEID);

      // a new lock state for the owner; CLOSE after LOCKU frees it with the open
      stateid4 l3 = lockid(c.call(putfh(f), lockNew(Nfs4.WRITE_LT, 0, 1, o, "lo", false)));
      assertThat(l3.sameOther(l1)).isFalse();
      lockid(c.call(putfh(f), locku(0, 1, l3)));
      assertThat(status(c.call(putfh(f), close(o)))).isEqualTo(Nfs4.NFS4_OK);
      assertThat(((TEST_STATEID4resok) last(c.call(testStateid(l3.withSeqid(0), o.withSeqid(0)))).resok())
          .statusCodes()).containsExactly(Nfs4.NFS4ERR_BAD_STATEID, Nfs4.NFS4ERR_BAD_STATEID);
    }
  }

  @Test
  void destroyClientIdOfAClientWithStateIsBusy() {
    byte[] f = file("busy").data();
    try (Nfs4LockClient c = client("host-b")) {
      stateid4 o = c.openFile(f, "p", BOTH);
      assertThat(status(c.raw(op(Nfs4.OP_DESTROY_SESSION, new DESTROY_SESSION4args(c.session)))))
          .isEqualTo(Nfs4.NFS4_OK);
      assertThat(status(c.raw(op(Nfs4.OP_DESTROY_CLIENTID, new DESTROY_CLIENTID4args(c.clientid)))))
          .isEqualTo(Nfs4.NFS4ERR_CLIENTID_BUSY);
      assertThat(o.seqid()).isEqualTo(1);
    }
  }
}
