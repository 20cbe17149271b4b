package io.ossgw.app.serve;

import io.ossgw.app.config.NfsConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.export.Cidr;
import io.ossgw.nfs.export.Export;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The NFS side of {@code serve}: one {@link NfsServer} (NFSv3 and MOUNT v3 on one TCP port, RFC 1813) over the
 * planned exports, each backed by the engine it shares with the other front ends. Its handle table lives in
 * {@code <state-dir>/nfs}, so file handles survive a restart. An export open to every client on an address other
 * than loopback is named in a WARN at start-up.
 */
final class NfsFrontEnd implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(NfsFrontEnd.class);

  private final NfsServer server;
  private final List<ExportPlanner.PlannedExport> exports;

  private NfsFrontEnd(NfsServer server, List<ExportPlanner.PlannedExport> exports) {
    this.server = server;
    this.exports = exports;
  }

  /**
   * Builds and starts the server.
   *
   * @param engineOf the engine of an export (created on first use, shared by every front end)
   * @throws RuntimeException with a user-facing message when the port cannot be bound or the handle table opened
   */
  static NfsFrontEnd start(NfsConfig cfg, List<ExportPlanner.PlannedExport> exports, Path stateDir,
      Function<ExportPlanner.PlannedExport, Engine> engineOf) {
    NfsServer.Builder b = NfsServer.builder().bind(cfg.bind()).port(cfg.port()).rpcbind(cfg.rpcbind())
        .stateDir(stateDir.resolve("nfs")).openIdleTimeout(cfg.openIdleTimeout())
        .maxConnections(cfg.maxConnections()).idleTimeout(cfg.idleTimeout()).recordTimeout(cfg.recordTimeout())
        .stallTimeout(cfg.stallTimeout()).maxInFlightPerConnection(cfg.maxInFlightPerConnection())
        .maxInFlight(cfg.maxInFlight());
    for (ExportPlanner.PlannedExport p : exports) {
      var s = p.settings();
      // the engine's "nfs" view: the same file system, counting NFS bytes for /q/metrics
      b.export(Export.builder(p.path(), engineOf.apply(p).fileSystem("nfs")).readOnly(s.readOnly())
          .clients(s.clients()).squash(p.squash()).anonUid(s.anonUid()).anonGid(s.anonGid()).secure(s.secure())
          .build());
    }
    NfsServer server;
    try {
      server = b.build().start();
    } catch (java.io.UncheckedIOException e) {
      throw new IllegalStateException("NFS: cannot listen on " + cfg.bind() + ":" + cfg.port() + " ("
          + e.getCause().getMessage() + "); set ossgw.nfs.port (or --nfs-port) to a free port", e);
    }
    for (ExportPlanner.PlannedExport p : exports) {
      LOG.infof("NFS export '%s': %s (bucket %s) on %s:%d; mount -t nfs -o nfsvers=3,proto=tcp,port=%d,mountport=%d,"
          + "nolock HOST:%s /mnt", p.name(), p.path(), p.engine().bucket(), cfg.bind(), server.port(), server.port(),
          server.port(), p.path());
      if (openToEveryone(p.settings().clients()) && !isLoopback(cfg.bind())) {
        LOG.warnf("NFS export '%s' (%s) is open to every client (clients=*) that reaches %s:%d; restrict it with "
            + "ossgw.exports.%s.clients=CIDR (quick form: --nfs-clients CIDR) or listen on 127.0.0.1 (--nfs-bind)",
            p.name(), p.path(), cfg.bind(), server.port(), p.name());
      }
    }
    return new NfsFrontEnd(server, exports);
  }

  /** True if the client list lets every address in ("*", 0.0.0.0/0, ::/0). */
  static boolean openToEveryone(List<String> clients) {
    return clients.stream().map(Cidr::parse).anyMatch(c -> c.prefix() == 0);
  }

  /** True if the listen address is a loopback literal or name ("127.0.0.1", "::1", "localhost"). */
  static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** The bound TCP port of NFS and MOUNT. */
  int port() {
    return server.port();
  }

  /** The exports served. */
  List<ExportPlanner.PlannedExport> exports() {
    return exports;
  }

  /** The server, for metrics (procedure counts) and health. */
  NfsServer server() {
    return server;
  }

  /** Stops accepting calls and uploads what clients wrote but did not COMMIT; the engines stay open. */
  @Override
  public void close() {
    server.stop();
  }
}
