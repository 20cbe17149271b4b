package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.junit.jupiter.api.Test;

/**
 * The COMPOUND rules of RFC 8881 §16.2 and §2.10.6, driven with encoded COMPOUND4args bytes: minor versions, the
 * position of SEQUENCE and the session-less operations, illegal and unoffered operations, stopping at the first
 * error, and malformed or huge compounds (errors, never a crash or an allocation sized by the peer).
 */
class CompoundTest {
  private final V4Wire w = new V4Wire();

  @Test
  void minorVersionsZeroAndTwoAreMismatchedWithNoResultsAndTheTagEchoed() {
    for (int minor : new int[] {0, 2, -1}) {
      COMPOUND4res r = w.call(request("mytag", minor, op(PUTROOTFH, null)));
      assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_MINOR_VERS_MISMATCH);
      assertThat(r.resarray()).isEmpty();
      assertThat(new String(r.tag())).isEqualTo("mytag");
    }
  }

  @Test
  void anEmptyCompoundIsOk() {
    COMPOUND4res r = w.call();
    assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(r.resarray()).isEmpty();
  }

  @Test
  void anOperationOtherThanTheSessionOnesFirstIsNotInSession() {
    COMPOUND4res r = w.call(op(PUTROOTFH, null), op(PUTROOTFH, null));
    assertThat(ops(r)).containsExactly(PUTROOTFH);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_OP_NOT_IN_SESSION);
    // v4.0 client-id operations are not session-less in 4.1 either
    assertThat(w.call(op(Nfs4.OP_SETCLIENTID, null)).status()).isEqualTo(Nfs4.NFS4ERR_OP_NOT_IN_SESSION);
  }

  @Test
  void sessionLessOperationsMustBeAlone() {
    EXCHANGE_ID4args ex = new EXCHANGE_ID4args(owner("a", 1), 0, state_protect4_a.NONE, null);
    COMPOUND4res r = w.call(op(Nfs4.OP_EXCHANGE_ID, ex), op(PUTROOTFH, null));
    assertThat(ops(r)).containsExactly(Nfs4.OP_EXCHANGE_ID);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_NOT_ONLY_OP);
    assertThat(w.table.clients()).isZero();
    COMPOUND4res d = w.call(op(Nfs4.OP_DESTROY_SESSION, new DESTROY_SESSION4args(new sessionid4(1, 2))),
        op(PUTROOTFH, null));
    assertThat(d.status()).isEqualTo(Nfs4.NFS4ERR_NOT_ONLY_OP);
  }

  @Test
  void illegalOperationNumbersAreOpIllegal() {
    for (int opnum : new int[] {0, 1, 2, 59, 71, Nfs4.OP_ILLEGAL, -5}) {
      COMPOUND4res r = w.call(op(opnum, null));
      assertThat(ops(r)).as("op %d", opnum).containsExactly(Nfs4.OP_ILLEGAL);
      assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_OP_ILLEGAL);
    }
    assertThat(w.compound.count(Nfs4.OP_ILLEGAL)).isEqualTo(7);
  }

  @Test
  void processingStopsAtTheFirstErrorAndUnofferedOperationsAreNotsupp() {
    sessionid4 sid = w.newSession("c", 4);
    // OPENATTR: named attributes are not offered (named_attr false), so it stays NOTSUPP
    COMPOUND4res r = w.call(sequence(sid, 0, 1), op(Nfs4.OP_OPENATTR, null),
        op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(false)));
    assertThat(ops(r)).containsExactly(Nfs4.OP_SEQUENCE, Nfs4.OP_OPENATTR);
    assertThat(statuses(r)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4ERR_NOTSUPP);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_NOTSUPP);
    // RECLAIM_COMPLETE did not run: it succeeds now
    assertThat(w.call(sequence(sid, 0, 2), op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(false)))
        .status()).isEqualTo(Nfs4.NFS4_OK);
    // v4.0-only operations (RENEW, SETCLIENTID, ...) are NOTSUPP inside a session
    assertThat(statuses(w.call(sequence(sid, 0, 3), op(Nfs4.OP_RENEW, null))))
        .containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4ERR_NOTSUPP);
    // counted per operation asked for, whatever the outcome; the RECLAIM_COMPLETE after the failure is not
    assertThat(w.compound.count(Nfs4.OP_SEQUENCE)).isEqualTo(3);
    assertThat(w.compound.count(Nfs4.OP_OPENATTR)).isEqualTo(1);
    assertThat(w.compound.count(Nfs4.OP_RECLAIM_COMPLETE)).isEqualTo(1);
    assertThat(w.compound.count(Nfs4.OP_RENEW)).isEqualTo(1);
  }

  @Test
  void sequenceAnywhereButFirstIsSequencePos() {
    sessionid4 sid = w.newSession("c", 4);
    COMPOUND4res r = w.call(sequence(sid, 0, 1), sequence(sid, 1, 1));
    assertThat(statuses(r)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4ERR_SEQUENCE_POS);
  }

  @Test
  void moreOperationsThanTheSessionAllowsAreTooManyOps() {
    sessionid4 sid = w.newSession("c", 4); // the client asked for 16 operations
    nfs_argop4[] ops = new nfs_argop4[17];
    ops[0] = sequence(sid, 0, 1);
    Arrays.fill(ops, 1, ops.length, op(PUTROOTFH, null));
    COMPOUND4res r = w.call(ops);
    assertThat(statuses(r)).containsExactly(Nfs4.NFS4ERR_TOO_MANY_OPS);
    // the slot was not used: sequence id 1 is still the next one
    assertThat(w.call(sequence(sid, 0, 1)).status()).isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void aHugeOperationCountIsAnsweredWithoutReadingOrAllocating() {
    for (int count : new int[] {129, Integer.MAX_VALUE, -1}) {
      byte[] req = header(count, 8);
      ByteBuffer.wrap(req).putInt(12, PUTROOTFH);
      COMPOUND4res r = w.call(req);
      assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_TOO_MANY_OPS);
      assertThat(ops(r)).containsExactly(PUTROOTFH);
    }
  }

  @Test
  void aHeaderThatDoesNotDecodeIsGarbageArgs() {
    assertThatThrownBy(() -> w.compound.process(new byte[] {0, 0}, ROOT)).isInstanceOf(XdrException.class);
    byte[] hugeTag = new byte[8];
    ByteBuffer.wrap(hugeTag).putInt(0x7fffffff);
    assertThatThrownBy(() -> w.compound.process(hugeTag, ROOT)).isInstanceOf(XdrException.class);
    byte[] longTag = new byte[4 + 2048 + 8];
    ByteBuffer.wrap(longTag).putInt(2048);
    assertThatThrownBy(() -> w.compound.process(longTag, ROOT)).isInstanceOf(XdrException.class);
  }

  @Test
  void argumentsThatDoNotDecodeAreBadxdr() {
    // EXCHANGE_ID with a co_ownerid over NFS4_OPAQUE_LIMIT
    byte[] req = header(1, 4 + 8 + 4);
    ByteBuffer b = ByteBuffer.wrap(req);
    b.putInt(12, Nfs4.OP_EXCHANGE_ID).putInt(16 + 8, 1 << 20);
    COMPOUND4res r = w.call(req);
    assertThat(ops(r)).containsExactly(Nfs4.OP_EXCHANGE_ID);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4ERR_BADXDR);
    // a truncated SEQUENCE, and fewer operations than announced
    byte[] seq = header(1, 4 + 6);
    ByteBuffer.wrap(seq).putInt(12, Nfs4.OP_SEQUENCE);
    assertThat(w.call(seq).status()).isEqualTo(Nfs4.NFS4ERR_BADXDR);
    assertThat(w.call(header(3, 0)).status()).isEqualTo(Nfs4.NFS4ERR_BADXDR);
    assertThat(w.table.clients()).isZero();
  }

  /**
   * Random damage to valid compounds and random bytes: every call answers or fails with {@link XdrException}
   * (GARBAGE_ARGS), nothing else.
   */
  @Test
  void fuzzedCompoundsGiveErrorsNeverCrashes() {
    sessionid4 sid = w.newSession("fuzz", 8);
    byte[][] seeds = {
      request(1, sequence(sid, 1, 1), op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(true))),
      request(1, op(Nfs4.OP_EXCHANGE_ID, new EXCHANGE_ID4args(owner("x", 2), 0, state_protect4_a.NONE,
          new nfs_impl_id4("d", "n", 1, 2)))),
      request(1, op(Nfs4.OP_CREATE_SESSION, new CREATE_SESSION4args(5, 1, 0, attrs(4, 100), attrs(1, 0), 1, 2))),
      request(1, op(Nfs4.OP_BIND_CONN_TO_SESSION, new BIND_CONN_TO_SESSION4args(sid, 3, false))),
    };
    Random rnd = new Random(7);
    int answered = 0;
    int garbage = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] req;
      if (i % 10 == 0) {
        req = new byte[rnd.nextInt(64)];
        rnd.nextBytes(req);
      } else {
        byte[] seed = seeds[i % seeds.length];
        req = Arrays.copyOf(seed, rnd.nextInt(4) == 0 ? rnd.nextInt(seed.length + 8) : seed.length);
        for (int k = rnd.nextInt(4); k >= 0 && req.length > 0; k--) {
          int at = rnd.nextInt(req.length);
          req[at] = rnd.nextBoolean() ? (byte) rnd.nextInt() : (byte) (rnd.nextBoolean() ? 0xff : 0);
        }
      }
      try {
        w.rawCall(req, rnd.nextBoolean() ? ROOT : "sys:1000");
        answered++;
      } catch (XdrException e) {
        garbage++;
      }
    }
    assertThat(answered).isGreaterThan(1000);
    assertThat(garbage).isGreaterThan(100);
    assertThat(w.table.clients()).isLessThanOrEqualTo(w.table.limits().maxClients());
  }

  /** Tag "", minor version 1, {@code count} operations, then {@code extra} zero bytes. */
  private static byte[] header(int count, int extra) {
    Xdr x = new Xdr(64);
    x.beginEncoding();
    new XdrWriter(x).int32(0).int32(1).int32(count);
    x.endEncoding();
    var buf = x.asBuffer();
    byte[] h = new byte[buf.remaining() + extra];
    buf.get(h, 0, buf.remaining());
    return h;
  }
}
