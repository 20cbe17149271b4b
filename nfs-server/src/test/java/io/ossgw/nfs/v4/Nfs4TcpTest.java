package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.rpc.RpcProgram;
import io.ossgw.nfs.rpc.RpcServer;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcAcceptedException;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Nfs4Program} on the project's RPC server over TCP, called with oncrpc4j's client: NULL, a session set up and
 * used, a retransmitted SEQUENCE answered from the slot cache, minor version 0 refused, and a COMPOUND whose header
 * does not decode answered GARBAGE_ARGS with the connection still usable.
 */
class Nfs4TcpTest {
  private final V4Wire w = new V4Wire();
  private RpcServer server;
  private OncRpcClient client;
  private RpcTransport transport;
  private final RpcAuth root = new RpcAuthTypeUnix(0, 0, new int[0], 0, "v4-test");

  @BeforeEach
  void start() throws Exception {
    RpcServer.Limits limits = new RpcServer.Limits("127.0.0.1", 0, 1 << 21, 16, 16, 32, 64, 16, 1,
        Duration.ofMinutes(6), Duration.ofSeconds(30), Duration.ofSeconds(10));
    server = new RpcServer(limits, List.of(new RpcProgram(Nfs4.PROGRAM, Nfs4.VERSION,
        new Nfs4Program(w.compound, 1 << 21))), a -> true);
    server.start();
    client = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, server.port());
    transport = client.connect(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.stop(1000);
  }

  private COMPOUND4res compound(byte[] request) throws Exception {
    RpcCall call = new RpcCall(Nfs4.PROGRAM, Nfs4.VERSION, root, transport);
    Xdrs.Decoder<COMPOUND4res> res = Xdrs.decoder(COMPOUND4res::decode);
    XdrType raw = new Xdrs.Raw(request);
    call.call(Nfs4.NFSPROC4_COMPOUND, Xdrs.encoder(raw), res, 10, TimeUnit.SECONDS, root);
    return res.value();
  }

  @Test
  void aSessionOverTcp() throws Exception {
    new RpcCall(Nfs4.PROGRAM, Nfs4.VERSION, root, transport)
        .call(Nfs4.NFSPROC4_NULL, XdrVoid.XDR_VOID, XdrVoid.XDR_VOID, 10, TimeUnit.SECONDS, root);
    assertThat(compound(request(0, op(PUTROOTFH, null))).status()).isEqualTo(Nfs4.NFS4ERR_MINOR_VERS_MISMATCH);

    COMPOUND4res ex = compound(request(1, op(Nfs4.OP_EXCHANGE_ID,
        new EXCHANGE_ID4args(owner("tcp", 1), 0, state_protect4_a.NONE, null))));
    EXCHANGE_ID4resok e = (EXCHANGE_ID4resok) ex.resarray().getFirst().resok();
    COMPOUND4res cs = compound(request(1, op(Nfs4.OP_CREATE_SESSION,
        new CREATE_SESSION4args(e.clientid(), e.sequenceid(), 0, attrs(8, 4096), attrs(1, 0), 0x40000000, 1))));
    sessionid4 sid = ((CREATE_SESSION4resok) cs.resarray().getFirst().resok()).sessionid();

    byte[] rc = request(1, sequence(sid, 0, 1), op(Nfs4.OP_RECLAIM_COMPLETE, new RECLAIM_COMPLETE4args(false)));
    assertThat(statuses(compound(rc))).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4_OK);
    assertThat(statuses(compound(rc))).containsExactly(Nfs4.NFS4_OK, Nfs4.NFS4_OK); // from the slot cache
    assertThat(compound(request(1, sequence(sid, 0, 3))).status()).isEqualTo(Nfs4.NFS4ERR_SEQ_MISORDERED);
    assertThat(w.table.sessions()).isEqualTo(1);
  }

  @Test
  void anUndecodableHeaderIsGarbageArgsAndTheConnectionLives() throws Exception {
    assertThatThrownBy(() -> compound(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}))
        .isInstanceOf(OncRpcAcceptedException.class).hasMessage("GARBAGE_ARGS");
    assertThat(compound(request(1)).status()).isEqualTo(Nfs4.NFS4_OK);
  }
}
