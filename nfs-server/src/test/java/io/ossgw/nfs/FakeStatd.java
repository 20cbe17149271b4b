package io.ossgw.nfs;

import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.OncRpcSvc;
import org.dcache.oncrpc4j.rpc.OncRpcSvcBuilder;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.xdr.XdrInt;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * An NFSv3 client host's status monitor as the gateway sees it after a restart (tests only): a statd (NSM program
 * 100024 v1) over UDP that records each SM_NOTIFY, and an rpcbind (portmapper v2) over UDP that answers GETPORT of
 * statd over UDP with its port (0 for anything else), both on free 127.0.0.1 ports, on oncrpc4j's RPC server. The XDR
 * is written here by hand from XNFS chapter 11 and RFC 1833, independently of the server's.
 */
final class FakeStatd implements AutoCloseable {
  /** One SM_NOTIFY received: stat_chge {mon_name, state} and the address it came from. */
  record Notice(String monName, int state, String from) {}

  final LinkedBlockingQueue<Notice> notices = new LinkedBlockingQueue<>();
  final int statdPort;
  final int rpcbindPort;
  private final OncRpcSvc statd;
  private final OncRpcSvc rpcbind;

  FakeStatd() {
    statdPort = freeUdpPort();
    statd = new OncRpcSvcBuilder().withUDP().withoutAutoPublish().withBindAddress("127.0.0.1").withPort(statdPort)
        .withSameThreadIoStrategy().withServiceName("fake-statd")
        .withRpcService(new OncRpcProgram(100024, 1), this::statd).build();
    rpcbindPort = freeUdpPort();
    rpcbind = new OncRpcSvcBuilder().withUDP().withoutAutoPublish().withBindAddress("127.0.0.1").withPort(rpcbindPort)
        .withSameThreadIoStrategy().withServiceName("fake-rpcbind")
        .withRpcService(new OncRpcProgram(100000, 2), this::rpcbind).build();
    try {
      statd.start();
      rpcbind.start();
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(e);
    }
  }

  private void statd(RpcCall call) throws IOException {
    switch (call.getProcedure()) {
      case 0 -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(XdrVoid.XDR_VOID);
      }
      case 6 -> { // SM_NOTIFY
        Xdrs.Decoder<Notice> a = Xdrs.decoder(r -> new Notice(r.string(1024), r.int32(),
            call.getTransport().getRemoteSocketAddress().getAddress().getHostAddress()));
        call.retrieveCall(a);
        notices.add(a.value());
        call.reply(XdrVoid.XDR_VOID);
      }
      default -> call.failProcedureUnavailable();
    }
  }

  private void rpcbind(RpcCall call) throws IOException {
    if (call.getProcedure() != 3) { // PMAPPROC_GETPORT
      call.failProcedureUnavailable();
      return;
    }
    // struct mapping { prog, vers, prot, port }
    Xdrs.Decoder<int[]> a = Xdrs.decoder(r -> new int[] {r.int32(), r.int32(), r.int32(), r.int32()});
    call.retrieveCall(a);
    int[] m = a.value();
    call.reply(new XdrInt(m[0] == 100024 && m[1] == 1 && m[2] == 17 ? statdPort : 0));
  }

  /** The next SM_NOTIFY, or null if none came within {@code wait}. */
  Notice next(Duration wait) throws InterruptedException {
    return notices.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A UDP port nothing listens on now. */
  static int freeUdpPort() {
    try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    for (OncRpcSvc s : new OncRpcSvc[] {statd, rpcbind}) {
      try {
        if (s != null) {
          s.stop();
        }
      } catch (IOException e) {
        // closing a test's server: nothing to do
      }
    }
  }
}
