package io.ossgw.nfs;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.fs.WriteVerifier;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.nfs.mount.Mount3Program;
import io.ossgw.nfs.nlm.MonitorList;
import io.ossgw.nfs.nlm.Nlm4;
import io.ossgw.nfs.nlm.Nlm4Program;
import io.ossgw.nfs.nlm.Nsm1Program;
import io.ossgw.nfs.rpc.EmbeddedRpcbind;
import io.ossgw.nfs.rpc.ReplyCache;
import io.ossgw.nfs.rpc.RpcProgram;
import io.ossgw.nfs.rpc.RpcServer;
import io.ossgw.nfs.v3.Nfs3Limits;
import io.ossgw.nfs.v3.Nfs3Program;
import io.ossgw.nfs.v4.Compound;
import io.ossgw.nfs.v4.Nfs4Program;
import io.ossgw.nfs.v4.ServerState;
import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.ClientStore;
import io.ossgw.nfs.v4.state.Grace;
import io.ossgw.nfs.v4.state.Reaper;
import io.ossgw.nfs.v4.state.V4Limits;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.xdr.Nfs3;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An NFSv3 server (RFC 1813) with MOUNT v3 and NLM v4 (byte-range locks, over a {@link LockTable}) on the same TCP
 * port, and NFSv4.1 (RFC 8881) on that port when {@link NfsServerBuilder#nfsV41(boolean)} is on, over one or more
 * {@link Export}s.
 *
 * <pre>{@code
 * NfsServer nfs = NfsServer.builder()
 *     .bind("0.0.0.0").port(2049)
 *     .export(Export.builder("/bucket", engine.fileSystem()).build())
 *     .stateDir(Path.of("/var/lib/ossgw"))
 *     .build()
 *     .start();
 * ...
 * nfs.stop();
 * }</pre>
 *
 * Calls to an NFS version not served are answered PROG_MISMATCH with the lowest and highest served (3-3, 3-4 or
 * 4-4; RFC 5531 §9), MOUNT v1/v2 calls PROG_MISMATCH(3, 3), so stock clients settle on what is served. With
 * {@link NfsServerBuilder#nfsV3(boolean) nfsV3(false)} MOUNT and NLM are not served either (PROG_UNAVAIL). With
 * {@link NfsServerBuilder#rpcbind(boolean)} an rpcbind on port 111 of the same address advertises the programs served.
 *
 * <p>File handles stay valid across restarts when a {@link NfsServerBuilder#stateDir(Path)} is given (the handle
 * table is kept there), and as long as each export keeps its path (or explicit id). The server does not own the
 * exports' file systems: {@link #stop()} uploads what NFS clients wrote and did not commit, and leaves closing the
 * engines to the caller.
 */
public final class NfsServer implements AutoCloseable {
  /** rtmax and wtmax: 1 MiB, the most Linux clients use. */
  public static final int MAX_IO = 1 << 20;

  private final NfsServerBuilder b;
  private final Exports exports;
  /** The handle table's file in the state directory. */
  static final String HANDLE_TABLE_FILE = "nfs-handles.mv";
  private InodeTable table;
  private Nfs3Program nfs;
  private RpcServer rpc;
  private EmbeddedRpcbind rpcbind;
  private int rpcbindPort;
  private ClientTable v4clients;
  private ServerState v4state;
  private Compound v4compound;
  /** Frees expired NFSv4.1 clients' state (null without v4.1). */
  private Reaper v4reaper;
  /** How often expired NFSv4.1 leases are looked for (a lease is tens of seconds). */
  private static final Duration REAP_INTERVAL = Duration.ofSeconds(1);
  /** The open handles NFSv3 and NFSv4.1 share (so both see one state of a file). */
  private OpenFiles openFiles;
  /** The NLM monitor list (null without NFSv3) and what tells its hosts of this start. */
  private MonitorList nlmHosts;
  private AutoCloseable smNotify;

  NfsServer(NfsServerBuilder b) {
    this.b = b;
    this.exports = new Exports(b.exports);
  }

  /** A builder with the defaults {@link NfsServerBuilder} documents. */
  public static NfsServerBuilder builder() {
    return new NfsServerBuilder();
  }

  /**
   * Opens the handle table, binds the port and starts serving (and rpcbind if asked).
   *
   * @return this
   * @throws java.io.UncheckedIOException if a port cannot be bound
   * @throws IllegalStateException if the handle table in the state directory cannot be opened
   * @throws io.ossgw.core.cluster.ClusterStoreException if the cluster's NFSv4.1 client records
   *     ({@link NfsServerBuilder#clientRecords}) cannot be loaded; nothing is left open
   */
  public synchronized NfsServer start() {
    if (rpc != null) {
      throw new IllegalStateException("already started");
    }
    // the file name is the one this table always had: handles given out before keep resolving
    try {
      table = b.sharedHandles != null ? InodeTable.shared(b.sharedHandles)
          : InodeTable.open(b.stateDir == null ? null : b.stateDir.resolve(HANDLE_TABLE_FILE));
    } catch (IllegalStateException e) {
      throw new IllegalStateException("cannot open the NFS handle table in " + b.stateDir + ": " + e.getMessage(), e);
    }
    Nfs3Limits limits = new Nfs3Limits(MAX_IO, MAX_IO, 64 * 1024, MAX_IO, b.openIdle, 20, 8L << 20,
        Duration.ofMinutes(10));
    WriteVerifier verifier = new WriteVerifier();
    openFiles = new OpenFiles(limits.openIdle(), limits.maxFailedReleases(), verifier::rotate);
    nfs = new Nfs3Program(exports, table, limits, new ReplyCache(8192, Duration.ofMinutes(2)), openFiles, verifier);
    Mount3Program mount = new Mount3Program(exports, table);
    // NLM hosts from before this start are sent SM_NOTIFY and reclaim in the grace period, which runs for them too
    try {
      nlmHosts = !b.nfsV3 ? null : b.nlmHosts != null ? MonitorList.inStore(b.nlmHosts, b.v4Clock)
          : MonitorList.open(b.stateDir, b.v4Clock);
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
    Grace nlmGrace = nlmHosts == null || nlmHosts.toNotify().isEmpty() ? null : new Grace(b.v4Clock, b.v4Grace);
    // NLM and NFSv4.1 share the lock table, so NLM honours the v4.1 grace period (v4state is set below, before serving)
    Nlm4Program nlm = new Nlm4Program(exports, table, b.locks, b.lockWait, Math.max(1, b.maxInFlight / 4),
        () -> (v4state != null && v4state.grace().active()) || (nlmGrace != null && nlmGrace.active()),
        nlmHosts == null ? MonitorList.none(b.v4Clock) : nlmHosts);
    // a WRITE of wtmax plus the RPC header, credential and arguments
    int maxRecord = MAX_IO + 16 * 1024;
    List<RpcProgram> served;
    try {
      served = programs(mount, nlm, maxRecord, verifier);
      if (nlmGrace != null && v4state != null) {
        v4state.grace().runAtLeast(b.v4Grace); // no v4.1 client may take a lock an NLM host is to reclaim
      }
    } catch (RuntimeException e) { // e.g. the cluster's client records cannot be loaded: close what is open
      stop();
      throw e;
    }
    rpc = new RpcServer(new RpcServer.Limits(b.bind, b.port, maxRecord, 1024, b.maxInFlightPerConnection,
        b.maxInFlightPerAddress, b.maxInFlight, b.maxConnections, b.selectorThreads, b.idleTimeout, b.recordTimeout, b.stallTimeout),
        served,
        // a peer no export allows could only ever be refused: it gets no connection slot
        address -> exports.all().stream().anyMatch(e -> e.allows(address)));
    try {
      int port = rpc.start();
      if (b.rpcbind) {
        // the status monitor on the rpcbind port: a rebooted client's SM_NOTIFY (UDP) releases its locks
        rpcbind = new EmbeddedRpcbind(b.bind, b.rpcbindPort,
            List.of(new RpcProgram(Nsm1Program.PROGRAM, Nsm1Program.VERSION, new Nsm1Program(nlm))));
        List<EmbeddedRpcbind.Service> services = new ArrayList<>(List.of(
            new EmbeddedRpcbind.Service(Nfs3.NFS_PROGRAM, Nfs3.VERSION),
            new EmbeddedRpcbind.Service(Nfs3.MOUNT_PROGRAM, Nfs3.VERSION),
            new EmbeddedRpcbind.Service(Nlm4.PROGRAM, Nlm4.VERSION)));
        if (b.nfsV41) { // as Linux knfsd registers it (a v4 client needs no rpcbind, rpcinfo -p shows it)
          services.add(new EmbeddedRpcbind.Service(Nfs4.PROGRAM, Nfs4.VERSION));
        }
        rpcbindPort = rpcbind.start(port, services.toArray(EmbeddedRpcbind.Service[]::new));
      }
      if (nlmHosts != null) { // serving: the hosts' reclaims can come in
        smNotify = Nlm4Program.notifyHosts(nlmHosts, b.nsmRpcbindPort, b.nsmName, b.nsmFirstWait, b.nsmAttempts,
            b.nsmTimeout);
      }
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
    return this;
  }

  private List<RpcProgram> programs(Mount3Program mount, Nlm4Program nlm, int maxRecord, WriteVerifier verifier) {
    // without v3 the v3 objects still exist (stop() uploads through them) but no call reaches them: a v3 call gets
    // PROG_MISMATCH(4, 4), MOUNT and NLM calls PROG_UNAVAIL
    List<RpcProgram> list = new ArrayList<>();
    if (b.nfsV3) {
      list.addAll(List.of(new RpcProgram(Nfs3.NFS_PROGRAM, Nfs3.VERSION, nfs),
          new RpcProgram(Nfs3.MOUNT_PROGRAM, Nfs3.VERSION, mount), new RpcProgram(Nlm4.PROGRAM, Nlm4.VERSION, nlm)));
    }
    if (b.nfsV41) {
      // client records and sessions (with their reply caches) get a share of the heap (V4Limits.forHeap)
      v4clients = new ClientTable(b.v4Clock, V4Limits.forHeap(b.heapBytes).withLease(b.v4Lease));
      // who held state before this start may reclaim it, in a grace period only if someone may (RFC 8881 §8.4.2)
      // in a cluster the record is in the store: the node taking the lease over learns who may reclaim there
      ClientStore known = b.clientRecords != null ? ClientStore.inStore(b.clientRecords) : ClientStore.open(b.stateDir);
      Grace grace = new Grace(b.v4Clock, b.v4Grace, known.loaded(), known::graceOver);
      v4state = new ServerState(v4clients, exports, table, b.locks, openFiles, verifier, grace);
      v4state.recordClients(known);
      v4reaper = Reaper.start(v4clients, grace, REAP_INTERVAL);
      v4compound = new Compound(v4state, "ossgw");
      list.add(new RpcProgram(Nfs4.PROGRAM, Nfs4.VERSION, new Nfs4Program(v4compound, maxRecord)));
    }
    return list;
  }

  /** The NFSv4.1 client and session state, or null unless {@link NfsServerBuilder#nfsV41} is on and started. */
  public ClientTable v4Clients() {
    return v4clients;
  }

  /** The NFSv4.1 open and lock state and grace, or null unless {@link NfsServerBuilder#nfsV41} is on and started. */
  public ServerState v4State() {
    return v4state;
  }

  /**
   * The NFSv4.1 COMPOUND dispatcher (its {@link Compound#count} gives operations per op number, for metrics), or null
   * unless {@link NfsServerBuilder#nfsV41} is on and the server started.
   */
  public Compound v4Compound() {
    return v4compound;
  }

  /** True if NFSv3 (with MOUNT v3 and NLM v4) is served ({@link NfsServerBuilder#nfsV3}). */
  public boolean servesV3() {
    return b.nfsV3;
  }

  /** True if NFSv4.1 is served ({@link NfsServerBuilder#nfsV41}). */
  public boolean servesV41() {
    return b.nfsV41;
  }

  /** The NFS and MOUNT port (after {@link #start()}; the actual one when 0 was asked). */
  public int port() {
    return rpc == null ? -1 : rpc.port();
  }

  /** The rpcbind port, or -1 without rpcbind. */
  public int rpcbindPort() {
    return rpcbind == null ? -1 : rpcbindPort;
  }

  public List<Export> exports() {
    return exports.all();
  }

  /** Calls in flight now (received and not yet answered). */
  public int inFlight() {
    return rpc == null ? 0 : rpc.inFlight();
  }

  /**
   * The caps on calls in flight in force (after {@link NfsServerBuilder#build}): {@code [total, per address, per
   * connection]}.
   */
  public int[] inFlightLimits() {
    return new int[] {b.maxInFlight, b.maxInFlightPerAddress, b.maxInFlightPerConnection};
  }

  /** The NLM monitor list (hosts holding NLM locks, NSM state number), or null without NFSv3 or before start. */
  public MonitorList nlmHosts() {
    return nlmHosts;
  }

  /** The byte-range lock table NLM serves (the one given to the builder, or the server's own). */
  public LockTable locks() {
    return b.locks;
  }

  /** Open TCP connections now. */
  public int connections() {
    return rpc == null ? 0 : rpc.connections();
  }

  /** NFS call counters of the running server (null when stopped). */
  public io.ossgw.nfs.v3.Nfs3Stats stats() {
    return nfs == null ? null : nfs.stats();
  }

  /** Files NFS clients have open now (handles kept between READ/WRITE calls). */
  public int openFiles() {
    return nfs == null ? 0 : nfs.openFiles();
  }

  /**
   * Stops serving: no new connections or calls, running calls finish (up to 10 s), files with unsaved writes are
   * uploaded, and the handle table is closed. The exports' file systems stay open. Idempotent.
   */
  public synchronized void stop() {
    if (smNotify != null) {
      try {
        smNotify.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      smNotify = null;
    }
    if (v4reaper != null) {
      v4reaper.close();
      v4reaper = null;
    }
    if (rpcbind != null) {
      rpcbind.stop();
      rpcbind = null;
    }
    if (rpc != null) {
      rpc.stop(10_000);
      rpc = null;
    }
    if (nfs != null) {
      nfs.close();
      nfs = null;
    }
    if (openFiles != null) {
      openFiles.close(); // uploads what v3 and v4.1 clients wrote and did not commit
      openFiles = null;
    }
    if (table != null) {
      table.close();
      table = null;
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** Configures an {@link NfsServer}; every setting has a default except the exports. */
}
