package io.ossgw.nfs.v4;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.NfsServerBuilder;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.ExportTest;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.Nfs3;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcAcceptedException;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link NfsServerBuilder#nfsV41}: off by default (version 4 gets PROG_MISMATCH as before), on serves it. */
class Nfs4ServerOptionTest {
  @TempDir
  Path state;

  private void nullCall(NfsServer s, int version) throws Exception {
    try (OncRpcClient c = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, s.port())) {
      RpcTransport t = c.connect(5, TimeUnit.SECONDS);
      RpcAuthTypeUnix auth = new RpcAuthTypeUnix(0, 0, new int[0], 0, "t");
      new RpcCall(Nfs4.PROGRAM, version, auth, t).call(0, XdrVoid.XDR_VOID, XdrVoid.XDR_VOID, 5, TimeUnit.SECONDS,
          auth);
    }
  }

  private NfsServer start(boolean v41) {
    NfsServerBuilder b = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state)
        .export(Export.builder("/a", ExportTest.FS).build());
    if (v41) {
      b.nfsV41(true);
    }
    return b.build().start();
  }

  @Test
  void versionFourIsServedOnlyWhenAskedFor() throws Exception {
    try (NfsServer off = start(false)) {
      assertThatThrownBy(() -> nullCall(off, Nfs4.VERSION)).isInstanceOf(OncRpcAcceptedException.class)
          .hasMessage("PROG_MISMATCH");
      assertThat(off.v4Clients()).isNull();
    }
    try (NfsServer on = start(true)) {
      nullCall(on, Nfs4.VERSION);
      nullCall(on, Nfs3.VERSION);
      assertThat(on.v4Clients().clients()).isZero();
    }
  }
}
