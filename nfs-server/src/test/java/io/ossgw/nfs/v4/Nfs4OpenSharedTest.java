package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.Open4Ops.*;
import static io.ossgw.nfs.v4.V4Client.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.COMMIT3args;
import io.ossgw.nfs.xdr.COMMIT3res;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.READ3args;
import io.ossgw.nfs.xdr.READ3res;
import io.ossgw.nfs.xdr.WRITE3args;
import io.ossgw.nfs.xdr.WRITE3res;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import io.ossgw.nfs.xdr.nfs_fh3;
import io.ossgw.nfs.xdr.nfsstat3;
import io.ossgw.testsupport.Slowdown;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open state NFSv4.1 shares with the rest of the server, over TCP against real servers on the engine and the OSS
 * emulator: an NFSv3 and an NFSv4.1 client of one file see one state (the same staged bytes, one write verifier), and
 * a client whose lease runs out (on a settable clock) has its files closed and what they held uploaded.
 */
class Nfs4OpenSharedTest {
  @TempDir
  static Path state;
  static V4Gateway gw;

  @BeforeAll
  static void start() {
    gw = V4Gateway.simple(state);
  }

  @AfterAll
  static void stop() {
    gw.close();
  }

  private static String object(String key) {
    if (!gw.sdk.doesObjectExist(V4Gateway.BUCKET, key)) {
      return null;
    }
    try (var o = gw.sdk.getObject(V4Gateway.BUCKET, key)) {
      return new String(o.getObjectContent().readAllBytes(), StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** One NFSv3 call to the gateway's port as uid/gid 1000. */
  private static <T> T v3(RpcTransport t, int proc, XdrType args, Function<XdrReader, T> decode) throws Exception {
    RpcAuth auth = new RpcAuthTypeUnix(1000, 1000, new int[0], 0, "v3-client");
    Xdrs.Decoder<T> res = Xdrs.decoder(decode);
    new RpcCall(Nfs3.NFS_PROGRAM, Nfs3.VERSION, auth, t).call(proc, Xdrs.encoder(args), res, 30, TimeUnit.SECONDS,
        auth);
    return res.value();
  }

  private static String text(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return new String(out, StandardCharsets.UTF_8);
  }

  @Test
  void aV3WriterAndAV4ReaderOfOneFileSeeOneState() throws Exception {
    OncRpcClient rpc = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, gw.port());
    try (V4Client c = new V4Client(gw.port(), 1000, 1000)) {
      RpcTransport t = rpc.connect(10, TimeUnit.SECONDS);
      COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET),
          Open4Ops.create("o", "mixed.txt", Nfs4.UNCHECKED4, BOTH, 0), getfh());
      assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
      stateid4 s = opened(r, 2).stateid();
      byte[] fh = ((GETFH4resok) body(r, 3)).object().data();
      nfs_fh3 fh3 = new nfs_fh3(fh); // the same persistent handle in both versions

      WRITE3res w3 = v3(t, Nfs3.NFSPROC3_WRITE, new WRITE3args(fh3, 0, 7, Nfs3.UNSTABLE,
          ByteBuffer.wrap("from-v3".getBytes(StandardCharsets.UTF_8))), WRITE3res::decode);
      assertThat(w3.status()).isEqualTo(nfsstat3.NFS3_OK);
      // v4 reads what v3 staged, before any upload
      COMPOUND4res rd = c.call(putfh(fh), read(s, 0, 100));
      assertThat(Open4Ops.text(body(rd, 1))).isEqualTo("from-v3");
      assertThat(object("mixed.txt")).isNotEqualTo("from-v3");

      COMPOUND4res w4 = c.call(putfh(fh), write(s, 7, Nfs4.UNSTABLE4, "+v4"));
      assertThat(((WRITE4resok) body(w4, 1)).writeverf()).isEqualTo(w3.verf()); // one verifier
      READ3res r3 = v3(t, Nfs3.NFSPROC3_READ, new READ3args(fh3, 0, 100), READ3res::decode);
      assertThat(text(r3.data())).isEqualTo("from-v3+v4");

      COMMIT3res c3 = v3(t, Nfs3.NFSPROC3_COMMIT, new COMMIT3args(fh3, 0, 0), COMMIT3res::decode);
      assertThat(c3.verf()).isEqualTo(w3.verf());
      assertThat(object("mixed.txt")).isEqualTo("from-v3+v4");
    } finally {
      rpc.close();
    }
  }

  @Test
  void aClientWhoseLeaseRunsOutHasItsFilesClosedAndUploaded() throws Exception {
    V4Wire.TestClock clock = new V4Wire.TestClock();
    NfsServer server = NfsServer.builder().bind("127.0.0.1").port(0).nfsV41(true).v4Clock(clock)
        .v4Lease(Duration.ofSeconds(10)).export(Export.builder("/" + V4Gateway.BUCKET, gw.engine.fileSystem()).build())
        .build().start();
    try (V4Client c = new V4Client(server.port(), 1000, 1000)) {
      COMPOUND4res r = c.call(putrootfh(), lookup(V4Gateway.BUCKET),
          Open4Ops.create("o", "expiring.txt", Nfs4.UNCHECKED4, BOTH, Nfs4.OPEN4_SHARE_DENY_BOTH), getfh(),
          write(stateid4.CURRENT, 0, Nfs4.UNSTABLE4, "left open"));
      assertThat(r.status()).isEqualTo(Nfs4.NFS4_OK);
      assertThat(server.v4State().opens().size()).isEqualTo(1);
      assertThat(object("expiring.txt")).isNotEqualTo("left open");

      clock.advance(Duration.ofSeconds(9));
      assertThat(server.v4Clients().reap()).isZero();
      clock.advance(Duration.ofSeconds(2));
      assertThat(server.v4Clients().reap()).isEqualTo(1);
      assertThat(server.v4State().opens().size()).isZero();
      assertThat(server.v4State().states().count(OpenState.class)).isZero();
      // the upload runs on its own thread: wait for it (bounded)
      Slowdown.waitUntil(() -> "left open".equals(object("expiring.txt")), Duration.ofSeconds(20));
      assertThat(object("expiring.txt")).isEqualTo("left open");
      // its DENY_BOTH went with it: another client opens the file
      try (V4Client d = new V4Client(server.port(), 1000, 1000)) {
        assertThat(d.call(putrootfh(), lookup(V4Gateway.BUCKET), open("d", "expiring.txt", BOTH, 0)).status())
            .isEqualTo(Nfs4.NFS4_OK);
      }
    } finally {
      server.stop();
    }
  }
}
