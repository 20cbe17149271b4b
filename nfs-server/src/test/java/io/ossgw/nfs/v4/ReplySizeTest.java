package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Client.getfh;
import static io.ossgw.nfs.v4.V4Client.lookup;
import static io.ossgw.nfs.v4.V4Client.putfh;
import static io.ossgw.nfs.v4.V4Client.putrootfh;
import static io.ossgw.nfs.v4.V4Wire.op;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reply-size rules of a session (RFC 8881 §18.36.3, §18.46.3, §15.1.3.8-9) over TCP against an NfsServer with
 * NFSv4.1: a reply stays within ca_maxresponsesize (NFS4ERR_REP_TOO_BIG), one asked to be cached within
 * ca_maxresponsesize_cached (NFS4ERR_REP_TOO_BIG_TO_CACHE); READ shortens itself to fit; an operation that changes
 * state is not run when its result might not fit; a request over ca_maxrequestsize is NFS4ERR_REQ_TOO_BIG.
 */
class ReplySizeTest {
  @TempDir
  static Path state;
  static V4Gateway gw;
  static V4Client c;
  static byte[] data = new byte[1 << 20];
  static byte[] fh;

  @BeforeAll
  static void start() {
    new Random(7).nextBytes(data);
    gw = V4Gateway.simple(state);
    gw.sdk.putObject(V4Gateway.BUCKET, "big", new ByteArrayInputStream(data));
    c = new V4Client(gw.port(), 1000, 1000);
    COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET), lookup("big"), getfh());
    fh = ((GETFH4resok) V4Client.body(r, 3)).object().data();
  }

  @AfterAll
  static void stop() {
    c.close();
    gw.close();
  }

  /** A session of its own on {@link #c}'s connection with this fore channel; sends SEQUENCE on slot 0. */
  static final class Session {
    final sessionid4 sid;
    final channel_attrs4 fore;
    int seq;

    Session(int maxRequest, int maxResponse, int maxCached) {
      COMPOUND4res ex = c.raw(V4Wire.request(1, op(Nfs4.OP_EXCHANGE_ID, new EXCHANGE_ID4args(
          V4Wire.owner("reply-size-" + System.nanoTime(), 1), 0, state_protect4_a.NONE, null))));
      EXCHANGE_ID4resok e = (EXCHANGE_ID4resok) ex.resarray().getFirst().resok();
      COMPOUND4res cs = c.raw(V4Wire.request(1, op(Nfs4.OP_CREATE_SESSION, new CREATE_SESSION4args(e.clientid(),
          e.sequenceid(), 0, new channel_attrs4(0, maxRequest, maxResponse, maxCached, 16, 4, null),
          V4Wire.attrs(1, 0), 0x40000000, 1))));
      assertThat(cs.status()).isEqualTo(Nfs4.NFS4_OK);
      CREATE_SESSION4resok ok = (CREATE_SESSION4resok) cs.resarray().getFirst().resok();
      this.sid = ok.sessionid();
      this.fore = ok.foreChanAttrs();
    }

    byte[] request(boolean cachethis, int seqid, nfs_argop4... ops) {
      List<nfs_argop4> all = new ArrayList<>();
      all.add(op(Nfs4.OP_SEQUENCE, new SEQUENCE4args(sid, seqid, 0, 0, cachethis)));
      all.addAll(Arrays.asList(ops));
      return V4Wire.request(1, all.toArray(nfs_argop4[]::new));
    }

    COMPOUND4res call(boolean cachethis, nfs_argop4... ops) {
      return c.raw(request(cachethis, ++seq, ops));
    }
  }

  static nfs_argop4 read(long offset, int count) {
    return op(Nfs4.OP_READ, new READ4args(stateid4.ANONYMOUS, offset, count));
  }

  /** The data of each successful READ result, in order. */
  static List<byte[]> reads(COMPOUND4res r) {
    List<byte[]> out = new ArrayList<>();
    for (nfs_resop4 one : r.resarray()) {
      if (one.op() == Nfs4.OP_READ && one.status() == Nfs4.NFS4_OK) {
        ByteBuffer b = ((READ4resok) one.resok()).data().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        out.add(bytes);
      }
    }
    return out;
  }

  /** The bytes of the whole RPC reply (the COMPOUND4res and the 24-byte accepted-reply header). */
  static long replySize(COMPOUND4res r) {
    return Xdrs.toBytes(r).length + CompoundContext.RPC_REPLY_HEADER;
  }

  @Test
  void readsStopAtCaMaxresponsesizeWithRepTooBig() {
    Session s = new Session(1 << 20, 256 << 10, 4096);
    nfs_argop4[] ops = new nfs_argop4[9];
    ops[0] = putfh(fh);
    for (int i = 1; i < ops.length; i++) {
      ops[i] = read((long) (i - 1) << 20 >>> 2, 1 << 20);
    }
    COMPOUND4res r = s.call(false, ops);
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4ERR_REP_TOO_BIG);
    assertThat(r.resarray().getLast()).isEqualTo(nfs_resop4.of(Nfs4.OP_READ, Nfs4.NFS4ERR_REP_TOO_BIG));
    assertThat(replySize(r)).isLessThanOrEqualTo(256 << 10);
    List<byte[]> got = reads(r);
    assertThat(got).isNotEmpty();
    assertThat(got.getFirst()).isEqualTo(Arrays.copyOf(data, got.getFirst().length));
    // the first READ left room for what follows, and what followed used it
    assertThat(got.getFirst().length).isGreaterThan(240 << 10);
  }

  @Test
  void aCachedReplyStaysWithinCaMaxresponsesizeCachedAndIsReplayed() {
    Session s = new Session(1 << 20, 1 << 20, 2048);
    assertThat(s.fore.maxresponsesizeCached()).isEqualTo(2048);
    byte[] req = s.request(true, 1, putfh(fh), read(0, 60_000), read(60_000, 60_000));
    COMPOUND4res r = c.raw(req);
    assertThat(V4Wire.statuses(r)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4_OK, Nfs4.NFS4_OK,
        Nfs4.NFS4ERR_REP_TOO_BIG_TO_CACHE);
    assertThat(replySize(r)).isLessThanOrEqualTo(2048);
    byte[] got = reads(r).getFirst();
    assertThat(got).isEqualTo(Arrays.copyOf(data, got.length));
    // kept: a retransmission gets the very same reply
    assertThat(Xdrs.toBytes(c.raw(req))).isEqualTo(Xdrs.toBytes(r));
  }

  @Test
  void aReplyTooBigToKeepIsSentAndItsRetryIsRetryUncachedRep() {
    Session s = new Session(1 << 20, 1 << 20, 2048);
    byte[] req = s.request(false, 1, putfh(fh), read(0, 60_000));
    COMPOUND4res r = c.raw(req);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
    assertThat(reads(r).getFirst()).isEqualTo(Arrays.copyOf(data, 60_000));
    assertThat(c.raw(req).status()).isEqualTo(Nfs4.NFS4ERR_RETRY_UNCACHED_REP);
  }

  @Test
  void anOperationThatChangesStateIsNotRunWhenItsResultMightNotFit() {
    Session s = new Session(1 << 20, 1 << 20, 120);
    // reply header 40, SEQUENCE 44, PUTROOTFH and LOOKUP 8 each: CREATE's result (up to 56 + 8) does not fit in 120
    COMPOUND4res r = s.call(true, putrootfh(), lookup(V4Gateway.BUCKET), DirOps.mkdir("not-made"));
    assertThat(V4Wire.statuses(r)).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4_OK, Nfs4.NFS4_OK,
        Nfs4.NFS4ERR_REP_TOO_BIG_TO_CACHE);
    Assertions.assertThatThrownBy(() -> gw.engine.fileSystem().getattr("/not-made"))
        .isInstanceOf(FsException.class);
    // not asked to be cached, the same compound runs
    r = s.call(false, putrootfh(), lookup(V4Gateway.BUCKET), DirOps.mkdir("made"));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    assertThat(gw.engine.fileSystem().getattr("/made").isDirectory()).isTrue();
  }

  @Test
  void aSequenceWhoseReplyCannotBeCachedFailsWithoutTakingTheSlot() {
    Session s = new Session(1 << 20, 1 << 20, 64);
    COMPOUND4res r = c.raw(s.request(true, 1, putrootfh()));
    assertThat(V4Wire.statuses(r)).containsExactly(Nfs4.NFS4ERR_REP_TOO_BIG_TO_CACHE);
    // the slot still expects sequence id 1
    assertThat(c.raw(s.request(false, 1, putrootfh())).status()).isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void aRequestOverCaMaxrequestsizeIsReqTooBigBeforeAnythingRuns() {
    Session s = new Session(1024, 1 << 20, 4096);
    assertThat(s.fore.maxrequestsize()).isEqualTo(1024);
    COMPOUND4res r = s.call(false, putrootfh(), lookup(V4Gateway.BUCKET), DirOps.mkdir("x".repeat(1000)));
    assertThat(V4Wire.statuses(r)).containsExactly(Nfs4.NFS4ERR_REQ_TOO_BIG);
  }

  @Test
  void theLargestChangingResultsAreBoundedAsEncoded() {
    // LOCK4denied with the longest owner is the largest result of an operation that changes state
    LOCK4denied denied = new LOCK4denied(0, -1L, Nfs4.WRITE_LT, new lock_owner4(1, new byte[1024]));
    assertThat(Xdrs.size(denied)).isEqualTo(Compound.changingResultBound(Nfs4.OP_LOCK));
    assertThat(Compound.changingResultBound(Nfs4.OP_READ)).isZero(); // measured after it ran, and shortened
    assertThat(Xdrs.size(new WRITE4resok(1, 0, 0L))).isEqualTo(Compound.changingResultBound(Nfs4.OP_WRITE));
  }
}
