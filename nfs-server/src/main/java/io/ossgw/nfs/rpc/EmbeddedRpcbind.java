package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.dcache.oncrpc4j.portmap.GenericPortmapClient;
import org.dcache.oncrpc4j.portmap.OncPortmapClient;
import org.dcache.oncrpc4j.portmap.OncRpcPortmap;
import org.dcache.oncrpc4j.portmap.OncRpcbindServer;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.OncRpcProgram;
import org.dcache.oncrpc4j.rpc.OncRpcSvc;
import org.dcache.oncrpc4j.rpc.OncRpcSvcBuilder;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.InetSocketAddresses;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrBoolean;

/**
 * An rpcbind/portmapper (program 100000, version 2 over TCP and UDP) for clients that look NFS, MOUNT and NLM up on
 * port 111, e.g. a plain {@code mount -t nfs gateway:/bucket /mnt} (the Linux client finds lockd here too), plus the
 * programs given to serve on this port itself (the status monitor). oncrpc4j's OncRpcbindServer on a configured
 * address (its OncRpcEmbeddedPortmap binds 0.0.0.0). Registrations (SET/UNSET) are accepted only from this host, so
 * remote clients cannot redirect lookups.
 */
public final class EmbeddedRpcbind {
  private static final System.Logger LOG = System.getLogger(EmbeddedRpcbind.class.getName());

  private final String bindAddress;
  private final int port;
  private final java.util.List<RpcProgram> local;
  private OncRpcSvc svc;

  /**
   * @param bindAddress where to listen (the NFS server's address)
   * @param port 111 normally; 0 for an ephemeral port (tests)
   */
  public EmbeddedRpcbind(String bindAddress, int port) {
    this(bindAddress, port, java.util.List.of());
  }

  /**
   * @param local programs served on the rpcbind port itself, over TCP and UDP, and registered for both (the status
   *     monitor, whose SM_NOTIFY a rebooted client sends over UDP)
   */
  public EmbeddedRpcbind(String bindAddress, int port, java.util.List<RpcProgram> local) {
    this.bindAddress = bindAddress;
    this.port = port;
    this.local = java.util.List.copyOf(local);
  }

  /** A program and version to advertise. */
  public record Service(int program, int version) {}

  /**
   * Starts the service and registers {@code services} over TCP at {@code servicePort}.
   *
   * @return the bound port
   * @throws UncheckedIOException if the port cannot be bound (111 needs root or CAP_NET_BIND_SERVICE) or the
   *     registration fails
   */
  public synchronized int start(int servicePort, Service... services) {
    OncRpcbindServer rpcbind = new OncRpcbindServer();
    int bound;
    try {
      bound = port != 0 ? port : freePort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    OncRpcSvcBuilder builder = new OncRpcSvcBuilder().withTCP().withUDP().withBindAddress(bindAddress)
        .withPort(bound).withoutAutoPublish().withSameThreadIoStrategy().withServiceName("nfs-rpcbind")
        .withRpcService(new OncRpcProgram(OncRpcPortmap.PORTMAP_PROGRAMM, OncRpcPortmap.PORTMAP_V2),
            call -> guarded(rpcbind, call));
    for (RpcProgram p : local) {
      builder.withRpcService(new OncRpcProgram(p.number(), p.version()), p.handler());
    }
    svc = builder.build();
    try {
      svc.start();
      InetAddress self = InetAddress.getByName(bindAddress).isAnyLocalAddress()
          ? InetAddress.getLoopbackAddress() : InetAddress.getByName(bindAddress);
      try (OncRpcClient client = new OncRpcClient(self, IpProtocolType.TCP, bound)) {
        RpcTransport t = client.connect(5, TimeUnit.SECONDS);
        OncPortmapClient pm = new GenericPortmapClient(t);
        String uaddr = InetSocketAddresses.uaddrOf(new InetSocketAddress(self, servicePort));
        for (Service s : services) {
          pm.setPort(s.program(), s.version(), "tcp", uaddr, "ossgw");
        }
        String here = InetSocketAddresses.uaddrOf(new InetSocketAddress(self, bound));
        for (RpcProgram p : local) {
          pm.setPort(p.number(), p.version(), "tcp", here, "ossgw");
          pm.setPort(p.number(), p.version(), "udp", here, "ossgw");
        }
      }
      LOG.log(System.Logger.Level.INFO, "rpcbind listening on " + bindAddress + ":" + bound);
      return bound;
    } catch (IOException | TimeoutException e) {
      stop();
      throw new UncheckedIOException("cannot start rpcbind on " + bindAddress + ":" + port + ": " + e.getMessage(),
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  /** A free TCP port on the bind address (tests ask for port 0; oncrpc4j does not report the bound port). */
  private int freePort() throws IOException {
    try (java.net.ServerSocket ss = new java.net.ServerSocket(0, 1, InetAddress.getByName(bindAddress))) {
      return ss.getLocalPort();
    }
  }

  /** SET and UNSET only from this host; everything else as OncRpcbindServer does it. */
  private static void guarded(OncRpcbindServer rpcbind, RpcCall call) throws OncRpcException, IOException {
    int proc = call.getProcedure();
    if ((proc == OncRpcPortmap.PMAPPROC_SET || proc == OncRpcPortmap.PMAPPROC_UNSET) && !local(call)) {
      call.retrieveCall(new org.dcache.oncrpc4j.portmap.mapping());
      call.reply(XdrBoolean.False);
      return;
    }
    rpcbind.dispatchOncRpcCall(call);
  }

  private static boolean local(RpcCall call) {
    InetSocketAddress a = call.getTransport().getRemoteSocketAddress();
    if (a == null) {
      return false;
    }
    InetAddress ip = a.getAddress();
    try {
      return ip.isLoopbackAddress() || NetworkInterface.getByInetAddress(ip) != null;
    } catch (SocketException e) {
      return false;
    }
  }

  public synchronized void stop() {
    if (svc != null) {
      try {
        svc.stop();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.DEBUG, "rpcbind stop: " + e);
      }
      svc = null;
    }
  }
}
