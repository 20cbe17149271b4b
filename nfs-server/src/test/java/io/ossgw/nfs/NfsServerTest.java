package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.ExportTest;
import io.ossgw.nfs.xdr.Nfs3;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.portmap.GenericPortmapClient;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuth;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeUnix;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The public API: builder checks, start and stop, rpcbind, the state directory's lock. */
class NfsServerTest {
  @TempDir
  Path state;

  static Export export(String path) {
    return Export.builder(path, ExportTest.FS).build();
  }

  @Test
  void builderRefusesBadConfigurations() {
    assertThatThrownBy(() -> NfsServer.builder().build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("export");
    assertThatThrownBy(() -> NfsServer.builder().export(export("/a")).export(export("/a")).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NfsServer.builder().export(export("/a")).port(70000).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> NfsServer.builder().export(export("/a")).maxInFlight(0).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A builder whose JVM heap may grow to {@code mib} MiB. */
  static NfsServerBuilder withHeap(long mib) {
    NfsServerBuilder b = NfsServer.builder().export(export("/a"));
    b.heapBytes = mib << 20;
    return b;
  }

  @Test
  void callsInFlightDefaultToWhatHalfTheHeapHoldsAndMoreIsRefused() {
    // memory_limit=256: a heap of 128 MiB (the JVM reports a little less), 2 MiB and 64 KiB per call
    assertThat(withHeap(124).build().inFlightLimits()).containsExactly(30, 25, 5);
    assertThat(withHeap(2048).build().inFlightLimits()).containsExactly(256, 208, 48);
    assertThat(withHeap(40).build().inFlightLimits()).containsExactly(9, 8, 1);
    assertThatThrownBy(() -> withHeap(124).maxInFlight(256).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than half the heap");
    assertThat(withHeap(124).maxInFlight(20).build().inFlightLimits()).containsExactly(20, 17, 3);
    assertThat(withHeap(124).maxInFlightPerAddress(10).build().inFlightLimits()).containsExactly(30, 10, 5);
    assertThatThrownBy(() -> withHeap(124).maxInFlightPerConnection(12).maxInFlightPerAddress(10).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("per connection");
  }

  @Test
  void rpcbindAdvertisesNfsMountAndNlmOnTheServersPort() throws Exception {
    NfsServer s = NfsServer.builder().bind("127.0.0.1").port(0).rpcbind(true).rpcbindPort(0).stateDir(state)
        .export(export("/a")).build().start();
    try {
      assertThat(s.rpcbindPort()).isPositive();
      try (OncRpcClient c = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.TCP, s.rpcbindPort())) {
        RpcTransport t = c.connect(5, TimeUnit.SECONDS);
        GenericPortmapClient pm = new GenericPortmapClient(t);
        assertThat(pm.getPort(Nfs3.NFS_PROGRAM, 3, "tcp")).endsWith("." + (s.port() >> 8) + "." + (s.port() & 0xff));
        assertThat(pm.getPort(Nfs3.MOUNT_PROGRAM, 3, "tcp")).endsWith("." + (s.port() >> 8) + "." + (s.port() & 0xff));
        // the Linux client looks lockd up here (NLM v4 with NFSv3) before its first lock
        assertThat(pm.getPort(100021, 4, "tcp")).endsWith("." + (s.port() >> 8) + "." + (s.port() & 0xff));
        // the status monitor is on rpcbind's own port, for TCP and UDP
        assertThat(pm.getPort(100024, 1, "tcp"))
            .endsWith("." + (s.rpcbindPort() >> 8) + "." + (s.rpcbindPort() & 0xff));
      }
    } finally {
      s.stop();
      s.stop(); // idempotent
    }
    assertThat(s.port()).isEqualTo(-1);
  }

  @Test
  void smNotifyOverUdpOnTheRpcbindPortReleasesTheRebootedClientsLocks() throws Exception {
    NfsServer s = NfsServer.builder().bind("127.0.0.1").port(0).rpcbind(true).rpcbindPort(0).stateDir(state)
        .export(export("/a")).build().start();
    try {
      LockTable.Owner rebooted = new LockTable.Owner("hosta@127.0.0.1", "1:00");
      LockTable.Owner other = new LockTable.Owner("hostb@127.0.0.1", "1:00");
      LockTable.FileKey f = new LockTable.FileKey(1, 42);
      s.locks().lock(f, rebooted, LockTable.Mode.EXCLUSIVE, 0, 9);
      s.locks().lock(f, other, LockTable.Mode.EXCLUSIVE, 10, 19);
      try (OncRpcClient c = new OncRpcClient(InetAddress.getLoopbackAddress(), IpProtocolType.UDP, s.rpcbindPort())) {
        RpcTransport t = c.connect(5, TimeUnit.SECONDS);
        // a rebooted client's sm-notify looks the status monitor up over UDP, then sends SM_NOTIFY there
        String uaddr = new GenericPortmapClient(t).getPort(100024, 1, "udp");
        assertThat(uaddr).endsWith("." + (s.rpcbindPort() >> 8) + "." + (s.rpcbindPort() & 0xff));
        RpcAuth auth = new RpcAuthTypeUnix(0, 0, new int[0], 0, "hosta");
        new RpcCall(100024, 1, auth, t).call(6, Xdrs.encoder(w -> w.string("hosta").int32(3)), XdrVoid.XDR_VOID,
            5, TimeUnit.SECONDS, auth);
      }
      assertThat(s.locks().locks(f)).containsExactly(new LockTable.Lock(other, LockTable.Mode.EXCLUSIVE, 10, 19));
    } finally {
      s.stop();
    }
  }

  @Test
  void aBusyPortAndALockedStateDirectoryFailAtStart() {
    NfsServer first = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state).export(export("/a")).build()
        .start();
    try {
      NfsServer samePort = NfsServer.builder().bind("127.0.0.1").port(first.port()).stateDir(state.resolve("other"))
          .export(export("/a")).build();
      assertThatThrownBy(samePort::start).isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining(String.valueOf(first.port()));
      NfsServer sameState = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state).export(export("/a")).build();
      assertThatThrownBy(sameState::start).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("handle table");
    } finally {
      first.stop();
    }
  }
}
