package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;

/**
 * A minimal NFSv4.1 client for the lock and grace tests (tests only): one TCP connection, a client id and a session
 * with one slot, every COMPOUND prefixed with SEQUENCE; arguments the server's types do not cover (OPEN, CLOSE) are
 * written here by hand from RFC 8881 §18.16.1 and §18.2.1.
 */
final class Nfs4LockClient implements AutoCloseable {
  private final int port;
  private OncRpcClient rpc;
  private RpcTransport transport;
  private final RpcAuth auth = new RpcAuthTypeUnix(0, 0, new int[0], 0, "v4-lock-test");
  final String owner;
  long clientid;
  sessionid4 session;
  private int seq;

  /** Connects and sets up a client id (owner {@code owner}, verifier 1) and a session. */
  Nfs4LockClient(int port, String owner) {
    this.owner = owner;
    this.port = port;
    connect();
    establish();
  }

  private void connect() {
    rpc = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, port);
    try {
      transport = rpc.connect(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** After a server restart: a new connection, client id and session (the same owner and verifier). */
  void reconnect() {
    close();
    connect();
    establish();
  }

  /** EXCHANGE_ID and CREATE_SESSION (again, e.g. after a server restart). */
  void establish() {
    byte[] v = {0, 0, 0, 0, 0, 0, 0, 1};
    COMPOUND4res ex = raw(op(Nfs4.OP_EXCHANGE_ID, new EXCHANGE_ID4args(
        new client_owner4(v, owner.getBytes(StandardCharsets.UTF_8)), 0, state_protect4_a.NONE, null)));
    assertThat(ex.status()).as("EXCHANGE_ID").isEqualTo(Nfs4.NFS4_OK);
    EXCHANGE_ID4resok e = (EXCHANGE_ID4resok) ex.resarray().getFirst().resok();
    channel_attrs4 fore = new channel_attrs4(0, 1 << 20, 1 << 20, 64 << 10, 16, 1, null);
    channel_attrs4 back = new channel_attrs4(0, 4096, 4096, 0, 2, 1, null);
    COMPOUND4res cs = raw(op(Nfs4.OP_CREATE_SESSION,
        new CREATE_SESSION4args(e.clientid(), e.sequenceid(), 0, fore, back, 0x40000000, 1)));
    assertThat(cs.status()).as("CREATE_SESSION").isEqualTo(Nfs4.NFS4_OK);
    clientid = e.clientid();
    session = ((CREATE_SESSION4resok) cs.resarray().getFirst().resok()).sessionid();
    seq = 0;
  }

  static nfs_argop4 op(int op, XdrType args) {
    return new nfs_argop4(op, args);
  }

  /** A COMPOUND without SEQUENCE (session set-up and teardown). */
  COMPOUND4res raw(nfs_argop4... ops) {
    byte[] req = Xdrs.toBytes(new COMPOUND4args("lock".getBytes(StandardCharsets.UTF_8), 1, List.of(ops)));
    RpcCall call = new RpcCall(Nfs4.PROGRAM, Nfs4.VERSION, auth, transport);
    Xdrs.Decoder<COMPOUND4res> res = Xdrs.decoder(COMPOUND4res::decode);
    try {
      call.call(Nfs4.NFSPROC4_COMPOUND, Xdrs.encoder(new Xdrs.Raw(req)), res, 30, TimeUnit.SECONDS, auth);
    } catch (Exception e) {
      throw new IllegalStateException("COMPOUND failed: " + e, e);
    }
    return res.value();
  }

  /** SEQUENCE (slot 0, the next sequence id) followed by {@code ops}. */
  COMPOUND4res call(nfs_argop4... ops) {
    List<nfs_argop4> all = new ArrayList<>();
    all.add(op(Nfs4.OP_SEQUENCE, new SEQUENCE4args(session, ++seq, 0, 0, false)));
    all.addAll(List.of(ops));
    return raw(all.toArray(nfs_argop4[]::new));
  }

  /** The last result of a compound run under SEQUENCE. */
  static nfs_resop4 last(COMPOUND4res r) {
    return r.resarray().getLast();
  }

  static nfs_argop4 putfh(byte[] fh) {
    return op(Nfs4.OP_PUTFH, w -> w.opaque(fh));
  }

  /** OPEN of the current filehandle (CLAIM_FH), or a reclaim of it (CLAIM_PREVIOUS), never creating. */
  nfs_argop4 open(String openOwner, int access, boolean reclaim) {
    return op(Nfs4.OP_OPEN, w -> {
      w.int32(0).int32(access).int32(Nfs4.OPEN4_SHARE_DENY_NONE);
      w.int64(clientid).opaque(openOwner.getBytes(StandardCharsets.UTF_8));
      w.int32(Nfs4.OPEN4_NOCREATE);
      if (reclaim) {
        w.int32(Nfs4.CLAIM_PREVIOUS).int32(Nfs4.OPEN_DELEGATE_NONE);
      } else {
        w.int32(Nfs4.CLAIM_FH);
      }
    });
  }

  static nfs_argop4 close(stateid4 open) {
    return op(Nfs4.OP_CLOSE, w -> {
      w.int32(0);
      open.encode(w);
    });
  }

  /** PUTFH + OPEN (CLAIM_FH); returns the open stateid. */
  stateid4 openFile(byte[] fh, String openOwner, int access) {
    COMPOUND4res r = call(putfh(fh), open(openOwner, access, false));
    assertThat(r.status()).as("OPEN").isEqualTo(Nfs4.NFS4_OK);
    return openStateid(last(r));
  }

  /** The stateid of an OPEN result. */
  static stateid4 openStateid(nfs_resop4 open) {
    return ((OPEN4resok) open.resok()).stateid();
  }

  /** LOCK by a new lock owner through an open stateid. */
  static nfs_argop4 lockNew(int type, long offset, long length, stateid4 open, String lockOwner, boolean reclaim) {
    return op(Nfs4.OP_LOCK, new LOCK4args(type, reclaim, offset, length,
        new open_to_lock_owner4(0, open, 0, new lock_owner4(0, lockOwner.getBytes(StandardCharsets.UTF_8))), null));
  }

  /** LOCK by an existing lock owner through its lock stateid. */
  static nfs_argop4 lock(int type, long offset, long length, stateid4 lock) {
    return op(Nfs4.OP_LOCK, new LOCK4args(type, false, offset, length, null, new exist_lock_owner4(lock, 0)));
  }

  static nfs_argop4 lockt(int type, long offset, long length, String lockOwner) {
    return op(Nfs4.OP_LOCKT, new LOCKT4args(type, offset, length,
        new lock_owner4(0, lockOwner.getBytes(StandardCharsets.UTF_8))));
  }

  static nfs_argop4 locku(long offset, long length, stateid4 lock) {
    return op(Nfs4.OP_LOCKU, new LOCKU4args(Nfs4.WRITE_LT, 0, lock, offset, length));
  }

  static nfs_argop4 testStateid(stateid4... ids) {
    return op(Nfs4.OP_TEST_STATEID, new TEST_STATEID4args(List.of(ids)));
  }

  static nfs_argop4 freeStateid(stateid4 id) {
    return op(Nfs4.OP_FREE_STATEID, new FREE_STATEID4args(id));
  }

  static nfs_argop4 reclaimComplete() {
    return op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(false));
  }

  /** A clock the test moves by hand (leases and the grace period are measured on it). */
  static final class TestClock extends java.time.Clock {
    private volatile java.time.Instant now = java.time.Instant.parse("2026-11-25T12:00:00Z");

    void advance(java.time.Duration d) {
      now = now.plus(d);
    }

    @Override
    public java.time.Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public java.time.Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Override
  public void close() {
    try {
      rpc.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
