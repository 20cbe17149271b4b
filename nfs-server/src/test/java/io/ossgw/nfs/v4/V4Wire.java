package io.ossgw.nfs.v4;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.V4Limits;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Test side of the wire: builds encoded COMPOUND4args, runs them through a {@link Compound} over a settable clock and
 * decodes the COMPOUND4res bytes, as a client would see them.
 */
final class V4Wire {
  /** A clock the test moves by hand (leases are checked against it). */
  static final class TestClock extends Clock {
    private Instant now = Instant.parse("2026-11-25T12:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  static final String ROOT = "sys:0";
  static final int PUTROOTFH = 24;

  final TestClock clock = new TestClock();
  final ClientTable table;
  final Compound compound;

  V4Wire() {
    this(V4Limits.DEFAULT);
  }

  V4Wire(V4Limits limits) {
    table = new ClientTable(clock, limits);
    compound = new Compound(table, "ossgw-test");
  }

  static byte[] request(int minor, nfs_argop4... ops) {
    return request("t", minor, ops);
  }

  static byte[] request(String tag, int minor, nfs_argop4... ops) {
    return Xdrs.toBytes(new COMPOUND4args(tag.getBytes(StandardCharsets.UTF_8), minor, List.of(ops)));
  }

  static nfs_argop4 op(int op, XdrType args) {
    return new nfs_argop4(op, args);
  }

  /** Runs encoded request bytes; returns the encoded reply bytes. */
  byte[] rawCall(byte[] request, String principal) {
    return Xdrs.toBytes(compound.process(request, principal));
  }

  COMPOUND4res call(byte[] request) {
    return call(request, ROOT);
  }

  COMPOUND4res call(byte[] request, String principal) {
    return Xdrs.fromBytes(rawCall(request, principal), COMPOUND4res::decode);
  }

  COMPOUND4res call(nfs_argop4... ops) {
    return call(request(1, ops));
  }

  static channel_attrs4 attrs(int slots, int cached) {
    return new channel_attrs4(0, 1 << 20, 1 << 20, cached, 16, slots, null);
  }

  static client_owner4 owner(String name, long verifier) {
    byte[] v = new byte[8];
    for (int i = 0; i < 8; i++) {
      v[i] = (byte) (verifier >>> (56 - 8 * i));
    }
    return new client_owner4(v, name.getBytes(StandardCharsets.UTF_8));
  }

  EXCHANGE_ID4resok exchangeId(client_owner4 owner, String principal) {
    COMPOUND4res r = call(request(1, op(Nfs4.OP_EXCHANGE_ID,
        new EXCHANGE_ID4args(owner, 0, state_protect4_a.NONE, null))), principal);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
    return (EXCHANGE_ID4resok) r.resarray().get(0).resok();
  }

  COMPOUND4res createSession(long clientid, int seq, channel_attrs4 fore, String principal) {
    return call(request(1, op(Nfs4.OP_CREATE_SESSION,
        new CREATE_SESSION4args(clientid, seq, 0, fore, attrs(1, 0), 0x40000000, 1))), principal);
  }

  /** EXCHANGE_ID and CREATE_SESSION for a new client with {@code slots} slots; returns the session id. */
  sessionid4 newSession(String name, int slots) {
    EXCHANGE_ID4resok e = exchangeId(owner(name, 1), ROOT);
    COMPOUND4res r = createSession(e.clientid(), e.sequenceid(), attrs(slots, 64 << 10), ROOT);
    assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
    return ((CREATE_SESSION4resok) r.resarray().getFirst().resok()).sessionid();
  }

  static nfs_argop4 sequence(sessionid4 sid, int slot, int seq) {
    return op(Nfs4.OP_SEQUENCE, new SEQUENCE4args(sid, seq, slot, slot, false));
  }

  /** The status of each result, in order. */
  static int[] statuses(COMPOUND4res r) {
    return r.resarray().stream().mapToInt(nfs_resop4::status).toArray();
  }

  static int[] ops(COMPOUND4res r) {
    return r.resarray().stream().mapToInt(nfs_resop4::op).toArray();
  }

  static String show(COMPOUND4res r) {
    return r.status() + " " + Arrays.toString(ops(r)) + " " + Arrays.toString(statuses(r));
  }
}
