package io.ossgw.app.serve;

import io.ossgw.app.config.NfsConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.nfs.NfsServer;
import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.NfsServerBuilder;
import io.ossgw.nfs.export.Cidr;
import io.ossgw.nfs.export.Export;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The NFS side of {@code serve}: one {@link NfsServer} over the planned exports, serving the versions of
 * {@code ossgw.nfs.versions} on one TCP port (NFSv3 with MOUNT v3 and NLM v4, RFC 1813; NFSv4.1, RFC 8881), each
 * export backed by the engine it shares with the other front ends. Its handle table lives in {@code <state-dir>/nfs},
 * so file handles survive a restart (in both versions: they are the same handles). At start-up each export is logged
 * with the mount command of each version, and one open to every client on an address other than loopback is named in
 * a WARN.
 */
final class NfsFrontEnd implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(NfsFrontEnd.class);

  private final NfsServer server;
  private final List<ExportPlanner.PlannedExport> exports;

  private NfsFrontEnd(NfsServer server, List<ExportPlanner.PlannedExport> exports) {
    this.server = server;
    this.exports = exports;
  }

  /** The longest lease and grace period accepted (Linux knfsd's bound). */
  static final Duration MAX_V4_TIME = Duration.ofHours(1);

  /**
   * What is wrong with the NFS settings that is not about ports or exports, one message per problem naming the key:
   * {@code ossgw.nfs.versions} (only 3 and 4.1), {@code ossgw.nfs.rpcbind} without version 3,
   * {@code ossgw.nfs.v4.lease-time} (whole seconds, 1s to 1h), {@code ossgw.nfs.v4.grace-time} (0s to 1h) and the
   * caps on calls in flight ({@link #inFlightProblems}).
   *
   * @return the problems; empty when the settings are good
   */
  static List<String> problems(NfsConfig cfg) {
    List<String> problems = problemsOfVersionsAndTimes(cfg);
    problems.addAll(inFlightProblems(cfg, Runtime.getRuntime().maxMemory()));
    return problems;
  }

  /**
   * What is wrong with {@code ossgw.nfs.max-in-flight}, {@code -per-address} and {@code -per-connection} for a heap
   * of {@code heapBytes}: a positive count each, the total at most what half the heap holds (each call may hold
   * {@link NfsServerBuilder#CALL_BYTES}), per connection at most per address, per address at most the total.
   */
  static List<String> inFlightProblems(NfsConfig cfg, long heapBytes) {
    List<String> problems = new ArrayList<>();
    NfsServerBuilder.InFlight caps = NfsServerBuilder.InFlight.resolve(cfg.maxInFlight().orElse(-1),
        cfg.maxInFlightPerAddress().orElse(-1), cfg.maxInFlightPerConnection().orElse(-1), heapBytes);
    long most = NfsServerBuilder.maxInFlightFor(heapBytes);
    if (caps.total() < 1 || caps.total() > most) {
      problems.add("ossgw.nfs.max-in-flight=" + caps.total() + " must be from 1 to " + most + ": each call in flight "
          + "may hold " + (NfsServerBuilder.CALL_BYTES >> 20) + " MiB of heap, and the heap is " + (heapBytes >> 20)
          + " MiB (half of memory_limit); lower it, or raise memory_limit");
    }
    if (caps.perAddress() < 1 || caps.perAddress() > caps.total()) {
      problems.add("ossgw.nfs.max-in-flight-per-address=" + caps.perAddress() + " must be from 1 to max-in-flight ("
          + caps.total() + ")");
    }
    if (caps.perConnection() < 1 || caps.perConnection() > caps.perAddress()) {
      problems.add("ossgw.nfs.max-in-flight-per-connection=" + caps.perConnection() + " must be from 1 to "
          + "max-in-flight-per-address (" + caps.perAddress() + ")");
    }
    return problems;
  }

  private static List<String> problemsOfVersionsAndTimes(NfsConfig cfg) {
    List<String> problems = new ArrayList<>();
    NfsVersions versions = null;
    try {
      versions = NfsVersions.parse(cfg.versions());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    if (versions != null && !versions.v3() && cfg.rpcbind()) {
      problems.add("ossgw.nfs.rpcbind=true needs version 3 in ossgw.nfs.versions (got " + versions + "): rpcbind "
          + "only tells NFSv3 clients where MOUNT and NLM are; NFSv4.1 clients need only the NFS port");
    }
    Duration lease = cfg.v4().leaseTime();
    if (lease.compareTo(Duration.ofSeconds(1)) < 0 || lease.compareTo(MAX_V4_TIME) > 0 || lease.getNano() != 0) {
      problems.add("ossgw.nfs.v4.lease-time must be whole seconds from 1s to 1h (clients get it in seconds), got "
          + lease);
    }
    if (cfg.nsmRpcbindPort() < 1 || cfg.nsmRpcbindPort() > 65535) {
      problems.add("ossgw.nfs.nsm-rpcbind-port must be from 1 to 65535, got " + cfg.nsmRpcbindPort());
    }
    Duration grace = cfg.v4().graceTime();
    if (grace.isNegative() || grace.compareTo(MAX_V4_TIME) > 0) {
      problems.add("ossgw.nfs.v4.grace-time must be from 0s to 1h, got " + grace);
    }
    return problems;
  }

  /**
   * Builds and starts the server (the settings passed {@link #problems}).
   *
   * @param engineOf the engine of an export (created on first use, shared by every front end)
   * @param locks the byte-range lock table of NLM and NFSv4.1 LOCK, or null for the server's own;
   *     {@link LockTable#none()} where locks cannot be cluster-wide (ossgw.cluster.mode=active)
   * @throws RuntimeException with a user-facing message when the port cannot be bound or the handle table opened
   */
  static NfsFrontEnd start(NfsConfig cfg, List<ExportPlanner.PlannedExport> exports, Path stateDir,
      Function<ExportPlanner.PlannedExport, Engine> engineOf, LockTable locks) {
    return start(cfg, exports, stateDir, engineOf, locks, null, null, null);
  }

  /**
   * As {@link #start(NfsConfig, List, Path, Function, LockTable)} with the handle table in the cluster's store when
   * {@code sharedHandles} is not null (issue 23 item 1: every gateway gives and accepts the same handles), and the
   * NFSv4.1 client records there when {@code clientRecords} is not null (item 2: the grace period after a takeover),
   * and the NLM monitor list there when {@code nlmHosts} is not null (item 2: SM_NOTIFY to the former holder's NLM
   * client hosts).
   */
  static NfsFrontEnd start(NfsConfig cfg, List<ExportPlanner.PlannedExport> exports, Path stateDir,
      Function<ExportPlanner.PlannedExport, Engine> engineOf, LockTable locks,
      io.ossgw.core.cluster.InodeNumberStore sharedHandles, io.ossgw.core.cluster.ClientRecordStore clientRecords,
      io.ossgw.core.cluster.ClientRecordStore nlmHosts) {
    NfsVersions versions = NfsVersions.parse(cfg.versions());
    NfsServerBuilder b = NfsServer.builder().bind(cfg.bind()).port(cfg.port()).rpcbind(cfg.rpcbind())
        .nfsV3(versions.v3()).nfsV41(versions.v41()).v4Lease(cfg.v4().leaseTime()).v4Grace(cfg.v4().graceTime())
        .stateDir(stateDir.resolve("nfs")).openIdleTimeout(cfg.openIdleTimeout())
        .maxConnections(cfg.maxConnections()).idleTimeout(cfg.idleTimeout()).recordTimeout(cfg.recordTimeout())
        .stallTimeout(cfg.stallTimeout()).sharedHandles(sharedHandles).clientRecords(clientRecords)
        .nlmHosts(nlmHosts).nsmName(cfg.nsmName().orElse(null)).nsmRpcbindPort(cfg.nsmRpcbindPort());
    if (locks != null) {
      b.locks(locks);
    }
    cfg.maxInFlight().ifPresent(b::maxInFlight);
    cfg.maxInFlightPerAddress().ifPresent(b::maxInFlightPerAddress);
    cfg.maxInFlightPerConnection().ifPresent(b::maxInFlightPerConnection);
    // in a cluster another gateway may serve a file next: its CREATE must have reached OSS
    boolean durableCreate = cfg.durableCreate().orElse(sharedHandles != null);
    for (ExportPlanner.PlannedExport p : exports) {
      var s = p.settings();
      // the engine's "nfs" view: the same file system, counting NFS bytes for /q/metrics
      b.export(Export.builder(p.path(), engineOf.apply(p).fileSystem("nfs")).readOnly(s.readOnly())
          .clients(s.clients()).squash(p.squash()).anonUid(s.anonUid()).anonGid(s.anonGid()).secure(s.secure())
          .durableCreate(durableCreate).build());
    }
    NfsServer server;
    try {
      server = b.build().start();
    } catch (java.io.UncheckedIOException e) {
      throw new IllegalStateException("NFS: cannot listen on " + cfg.bind() + ":" + cfg.port() + " ("
          + e.getCause().getMessage() + "); set ossgw.nfs.port (or --nfs-port) to a free port", e);
    }
    int[] inFlight = server.inFlightLimits();
    LOG.infof("NFS limits: %d calls in flight, %d per client address, %d per connection (heap %d MiB)%s", inFlight[0],
        inFlight[1], inFlight[2], Runtime.getRuntime().maxMemory() >> 20, server.v4Clients() == null ? ""
            : String.format("; NFSv4.1 client state %d MiB, %d MiB per client address",
                server.v4Clients().limits().stateBytes() >> 20, server.v4Clients().limits().perAddressBytes() >> 20));
    for (ExportPlanner.PlannedExport p : exports) {
      LOG.infof("NFS export '%s': %s (bucket %s) on %s:%d, NFS %s; %s", p.name(), p.path(), p.engine().bucket(),
          cfg.bind(), server.port(), versions, String.join("; ", mountCommands(versions, server.port(), cfg.rpcbind(),
              p.path())));
      if (openToEveryone(p.settings().clients()) && !isLoopback(cfg.bind())) {
        LOG.warnf("NFS export '%s' (%s) is open to every client (clients=*) that reaches %s:%d; restrict it with "
            + "ossgw.exports.%s.clients=CIDR (quick form: --nfs-clients CIDR) or listen on 127.0.0.1 (--nfs-bind)",
            p.name(), p.path(), cfg.bind(), server.port(), p.name());
      }
    }
    return new NfsFrontEnd(server, exports);
  }

  /**
   * The Linux mount commands for an export, one per version served (HOST stands for the gateway's address): NFSv4.1
   * on port 2049 needs no option at all ({@code mount -t nfs HOST:/bucket /mnt} negotiates 4.1), on another port
   * {@code vers=4.1,port=P}; NFSv3 needs {@code vers=3} plus, without rpcbind, both ports and {@code nolock}.
   *
   * @param port the bound NFS port
   * @param path the export path, e.g. {@code /bucket}
   */
  static List<String> mountCommands(NfsVersions versions, int port, boolean rpcbind, String path) {
    List<String> out = new ArrayList<>();
    if (versions.v41()) {
      out.add("mount -t nfs " + (port == 2049 ? "" : "-o vers=4.1,port=" + port + " ") + "HOST:" + path + " /mnt");
    }
    if (versions.v3()) {
      // with rpcbind the client looks every port up (NLM too, so locks work); without, it must be told both ports,
      // and nolock: its lockd finds NLM only through rpcbind
      out.add("mount -t nfs -o " + (rpcbind ? "vers=3" : "vers=3,proto=tcp,port=" + port + ",mountport=" + port
          + ",nolock") + " HOST:" + path + " /mnt");
    }
    return out;
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

  /** The server, for metrics (procedure and operation counts, v4 state) and health. */
  NfsServer server() {
    return server;
  }

  /** Stops accepting calls and uploads what clients wrote but did not COMMIT; the engines stay open. */
  @Override
  public void close() {
    server.stop();
  }
}
