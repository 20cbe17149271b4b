package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.op;
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
 * An NFSv4.1 client over TCP for tests (oncrpc4j's RPC client): EXCHANGE_ID and CREATE_SESSION on connect, then
 * {@link #call} sends SEQUENCE (slot 0) followed by the given operations and returns the results after SEQUENCE's.
 * The credential may change between calls ({@link #as}); the session stays.
 */
final class V4Client implements AutoCloseable {
  private final OncRpcClient client;
  private final RpcTransport transport;
  private RpcAuth auth;
  private final sessionid4 sid;
  private int seq;

  V4Client(int port, int uid, int gid) {
    this.client = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, port);
    try {
      this.transport = client.connect(10, TimeUnit.SECONDS);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    as(uid, gid);
    COMPOUND4res ex = raw(V4Wire.request(1, op(Nfs4.OP_EXCHANGE_ID, new EXCHANGE_ID4args(
        V4Wire.owner("v4client-" + System.nanoTime(), 1), 0, state_protect4_a.NONE, null))));
    assertThat(ex.status()).isEqualTo(Nfs4.NFS4_OK);
    EXCHANGE_ID4resok e = (EXCHANGE_ID4resok) ex.resarray().getFirst().resok();
    COMPOUND4res cs = raw(V4Wire.request(1, op(Nfs4.OP_CREATE_SESSION, new CREATE_SESSION4args(e.clientid(),
        e.sequenceid(), 0, V4Wire.attrs(4, 64 << 10), V4Wire.attrs(1, 0), 0x40000000, 1))));
    assertThat(cs.status()).isEqualTo(Nfs4.NFS4_OK);
    this.sid = ((CREATE_SESSION4resok) cs.resarray().getFirst().resok()).sessionid();
  }

  /** Later calls use AUTH_SYS with this uid, gid and groups. */
  V4Client as(int uid, int gid, int... groups) {
    this.auth = new RpcAuthTypeUnix(uid, gid, groups, 0, "v4-client");
    return this;
  }

  /** Later calls use this credential (e.g. AUTH_NONE). */
  V4Client as(RpcAuth a) {
    this.auth = a;
    return this;
  }

  /** One COMPOUND of raw request bytes (no SEQUENCE added). */
  COMPOUND4res raw(byte[] request) {
    RpcCall call = new RpcCall(Nfs4.PROGRAM, Nfs4.VERSION, auth, transport);
    Xdrs.Decoder<COMPOUND4res> res = Xdrs.decoder(COMPOUND4res::decode);
    try {
      call.call(Nfs4.NFSPROC4_COMPOUND, Xdrs.encoder(new Xdrs.Raw(request)), res, 30, TimeUnit.SECONDS, auth);
    } catch (Exception e) {
      throw new IllegalStateException("COMPOUND failed: " + e, e);
    }
    return res.value();
  }

  /** SEQUENCE then {@code ops}; the reply with SEQUENCE's result removed (its status checked). */
  COMPOUND4res call(nfs_argop4... ops) {
    nfs_argop4[] all = new nfs_argop4[ops.length + 1];
    all[0] = V4Wire.sequence(sid, 0, ++seq);
    System.arraycopy(ops, 0, all, 1, ops.length);
    COMPOUND4res r = raw(V4Wire.request(1, all));
    assertThat(r.resarray().getFirst().status()).as("SEQUENCE").isEqualTo(Nfs4.NFS4_OK);
    List<nfs_resop4> rest = new ArrayList<>(r.resarray().subList(1, r.resarray().size()));
    return new COMPOUND4res(r.status(), r.tag(), rest);
  }

  @Override
  public void close() {
    try {
      client.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // Operation builders.

  static nfs_argop4 putrootfh() {
    return op(Nfs4.OP_PUTROOTFH, null);
  }

  static nfs_argop4 putpubfh() {
    return op(Nfs4.OP_PUTPUBFH, null);
  }

  static nfs_argop4 putfh(byte[] fh) {
    return op(Nfs4.OP_PUTFH, new PUTFH4args(new nfs_fh4(fh)));
  }

  static nfs_argop4 getfh() {
    return op(Nfs4.OP_GETFH, null);
  }

  static nfs_argop4 savefh() {
    return op(Nfs4.OP_SAVEFH, null);
  }

  static nfs_argop4 restorefh() {
    return op(Nfs4.OP_RESTOREFH, null);
  }

  static nfs_argop4 lookup(String name) {
    return lookup(name.getBytes(StandardCharsets.UTF_8));
  }

  static nfs_argop4 lookup(byte[] name) {
    return op(Nfs4.OP_LOOKUP, new LOOKUP4args(name));
  }

  static nfs_argop4 lookupp() {
    return op(Nfs4.OP_LOOKUPP, null);
  }

  static nfs_argop4 getattr(int... attrs) {
    return op(Nfs4.OP_GETATTR, new GETATTR4args(bitmap4.of(attrs)));
  }

  static nfs_argop4 setattr(stateid4 s, fattr4 attrs) {
    return op(Nfs4.OP_SETATTR, new SETATTR4args(s, attrs));
  }

  static nfs_argop4 access(int bits) {
    return op(Nfs4.OP_ACCESS, new ACCESS4args(bits));
  }

  static nfs_argop4 secinfo(String name) {
    return op(Nfs4.OP_SECINFO, new SECINFO4args(name.getBytes(StandardCharsets.UTF_8)));
  }

  static nfs_argop4 secinfoNoName(int style) {
    return op(Nfs4.OP_SECINFO_NO_NAME, new SECINFO_NO_NAME4args(style));
  }

  static nfs_argop4 verify(fattr4 attrs) {
    return op(Nfs4.OP_VERIFY, new VERIFY4args(attrs));
  }

  static nfs_argop4 nverify(fattr4 attrs) {
    return op(Nfs4.OP_NVERIFY, new VERIFY4args(attrs));
  }

  /** An XdrType from a lambda, for attribute values. */
  static fattr4 fattr(bitmap4 mask, XdrType values) {
    return new fattr4(mask, Xdrs.toBytes(values));
  }

  /** The body of result {@code i}, cast. */
  @SuppressWarnings("unchecked")
  static <T> T body(COMPOUND4res r, int i) {
    return (T) r.resarray().get(i).resok();
  }
}
