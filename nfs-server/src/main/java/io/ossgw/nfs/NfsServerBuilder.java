package io.ossgw.nfs;

import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.state.V4Limits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Settings of an {@link NfsServer}: address and port, exports, NFS versions, NFSv4.1 lease and grace, limits on
 * connections and requests in flight, timeouts, the state directory and the lock table. Each setter documents its
 * default; {@link #build()} validates them together. The limits on calls in flight and on NFSv4.1 client state default
 * to shares of the JVM's heap ({@link Runtime#maxMemory()}, half of {@code memory_limit} with the launcher).
 */
public final class NfsServerBuilder {
  /**
   * Heap one call in flight may hold at worst: a READ's or WRITE's {@link NfsServer#MAX_IO} of data twice plus
   * headers. With the receive and reply pools ({@code rpc.ReceiveMemory}, {@code rpc.ReplyMemory}) a call's data is
   * held once, in direct memory, and on the heap only when a pool is spent; the bound stays twice that, so a part of
   * the record that is in a 256 KiB receive piece shared with the next record, or a reply queued behind others, fits.
   */
  public static final long CALL_BYTES = 2L * NfsServer.MAX_IO + (64 << 10);
  /** Calls in flight may hold at most this fraction (1/2) of the heap. */
  public static final int IN_FLIGHT_HEAP_SHARE = 2;

  String bind = "0.0.0.0";
  int port = 2049;
  final List<Export> exports = new ArrayList<>();
  boolean rpcbind;
  boolean nfsV3 = true;
  boolean nfsV41;
  Duration v4Lease = V4Limits.DEFAULT.lease();
  Duration v4Grace = V4Limits.DEFAULT.lease();
  java.time.Clock v4Clock = java.time.Clock.systemUTC();
  int rpcbindPort = 111;
  Path stateDir;
  Duration openIdle = Duration.ofSeconds(5);
  int maxConnections = 1024;
  /** -1 until set: derived from {@link #maxInFlight} by {@link #build}. */
  int maxInFlightPerConnection = -1;
  /** -1 until set: derived from {@link #maxInFlight} by {@link #build}. */
  int maxInFlightPerAddress = -1;
  /** -1 until set: derived from the heap by {@link #build}. */
  int maxInFlight = -1;
  long heapBytes = Runtime.getRuntime().maxMemory();
  Duration idleTimeout = Duration.ofMinutes(6);
  Duration recordTimeout = Duration.ofSeconds(30);
  Duration stallTimeout = Duration.ofSeconds(10);
  int selectorThreads = Math.max(2, Runtime.getRuntime().availableProcessors() / 2);
  LockTable locks;
  Duration lockWait = Duration.ofSeconds(4);

  NfsServerBuilder() {}

  /**
   * The byte-range lock table NLM uses; default a table of its own (10,000 locks per client, 100,000 in all). Give
   * the same table to every front end whose locks must conflict with NFS clients' locks.
   */
  public NfsServerBuilder locks(LockTable t) {
    this.locks = Objects.requireNonNull(t);
    return this;
  }

  /**
   * How long a blocking NLM LOCK (F_SETLKW) waits on the server for a conflicting lock to go before the client is
   * told to ask again (it does within 5 s); default 4 s. Keep it under the Linux client's NLM RPC timeout (10 s), or
   * the client retransmits and logs "lockd: server not responding". {@link Duration#ZERO}: answer at once.
   */
  public NfsServerBuilder lockWait(Duration d) {
    this.lockWait = nonNegative(d);
    return this;
  }

  /** Listen address; default 0.0.0.0. */
  public NfsServerBuilder bind(String address) {
    this.bind = Objects.requireNonNull(address);
    return this;
  }

  /** NFS and MOUNT TCP port; default 2049, 0 for an ephemeral port. */
  public NfsServerBuilder port(int p) {
    this.port = p;
    return this;
  }

  /** Adds an export (at least one is required; paths and ids must be unique). */
  public NfsServerBuilder export(Export e) {
    this.exports.add(Objects.requireNonNull(e));
    return this;
  }

  /**
   * Serves NFS version 3 (RFC 1813) with MOUNT v3 and NLM v4; default on. Off: a version 3 call gets PROG_MISMATCH
   * with the versions served (4, 4), MOUNT and NLM calls PROG_UNAVAIL; {@link #nfsV41} must then be on and
   * {@link #rpcbind} off ({@link #build} refuses otherwise).
   */
  public NfsServerBuilder nfsV3(boolean on) {
    this.nfsV3 = on;
    return this;
  }

  /**
   * Also serves NFS version 4 minor version 1 (RFC 8881) on the same port, over the same exports, handles, open
   * files and lock table as version 3; COMPOUNDs of minor versions 0 and 2 get NFS4ERR_MINOR_VERS_MISMATCH. Default
   * off for library users; {@code ossgw serve} turns it on through {@code ossgw.nfs.versions} (default 3,4.1).
   */
  public NfsServerBuilder nfsV41(boolean on) {
    this.nfsV41 = on;
    return this;
  }

  /** The NFSv4.1 lease (RFC 8881 §8.3, attribute lease_time); default 90 s. */
  public NfsServerBuilder v4Lease(Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("lease must be positive: " + d);
    }
    this.v4Lease = d;
    return this;
  }

  /**
   * The longest NFSv4.1 grace period after a restart (RFC 8881 §8.4.2), ended earlier when every client known from
   * before has sent RECLAIM_COMPLETE; default 90 s (the lease). There is a grace period only when the client record
   * in the {@link #stateDir} names clients that held state before the restart: not at a first start, not without
   * a state directory.
   */
  public NfsServerBuilder v4Grace(Duration d) {
    this.v4Grace = nonNegative(d);
    return this;
  }

  /** The clock of NFSv4.1 leases and the grace period; default the system clock (tests pass a settable one). */
  public NfsServerBuilder v4Clock(java.time.Clock c) {
    this.v4Clock = Objects.requireNonNull(c);
    return this;
  }

  /** Runs an rpcbind (portmapper v2) on the bind address; default off. */
  public NfsServerBuilder rpcbind(boolean on) {
    this.rpcbind = on;
    return this;
  }

  /** The rpcbind port; default 111 (0 for an ephemeral one, in tests). */
  public NfsServerBuilder rpcbindPort(int p) {
    this.rpcbindPort = p;
    return this;
  }

  /**
   * Where the handle table ({@code nfs-handles.mv}) and the NFSv4.1 client record ({@code nfs4-clients}: the
   * clients holding open or lock state, who may reclaim it after a restart) live; without one, handles do not
   * survive a restart and NFSv4.1 clients cannot reclaim (no grace period: their opens and locks are lost with the
   * server). May be the engine's {@code state_dir}.
   */
  public NfsServerBuilder stateDir(Path dir) {
    this.stateDir = dir;
    return this;
  }

  /**
   * Keeps the handle table (numbers, generations, the handle MAC secret) in a cluster's store instead of the state
   * directory's {@code nfs-handles.mv} (issue 23 item 1): every gateway on the store gives the same handle for the same
   * object and accepts the others'. Export ids must then be the same on every gateway (they are, derived from the
   * export's path, unless set). Default null: the file.
   */
  public NfsServerBuilder sharedHandles(io.ossgw.core.cluster.InodeNumberStore store) {
    this.sharedHandles = store;
    return this;
  }

  io.ossgw.core.cluster.InodeNumberStore sharedHandles;

  /**
   * Keeps the NFSv4.1 client record (the client owners that may reclaim after a restart or a failover) in a cluster's
   * store instead of the state directory's {@code nfs4-clients} (issue 23 item 2): it is loaded when the server starts,
   * so a gateway that takes the serving lease over runs the grace period for the former holder's clients. Default
   * null: the file.
   */
  public NfsServerBuilder clientRecords(io.ossgw.core.cluster.ClientRecordStore store) {
    this.clientRecords = store;
    return this;
  }

  io.ossgw.core.cluster.ClientRecordStore clientRecords;

  /**
   * Keeps the NLM monitor list (the client hosts holding NLM locks, and the NSM state number; {@code
   * nlm.MonitorList}) in a cluster's store instead of the state directory's {@code nlm-hosts} (issue 23 item 2): the
   * gateway that takes the serving lease over sends those hosts SM_NOTIFY, so they reclaim their locks in its grace
   * period. Default null: the file.
   */
  public NfsServerBuilder nlmHosts(io.ossgw.core.cluster.ClientRecordStore store) {
    this.nlmHosts = store;
    return this;
  }

  io.ossgw.core.cluster.ClientRecordStore nlmHosts;

  /**
   * The rpcbind port of the NLM client hosts, where their statd is looked up (PMAPPROC_GETPORT over UDP) to send them
   * SM_NOTIFY after a restart or takeover; default 111 (tests point it at a fake rpcbind).
   */
  public NfsServerBuilder nsmRpcbindPort(int p) {
    this.nsmRpcbindPort = p;
    return this;
  }

  int nsmRpcbindPort = 111;

  /**
   * The {@code mon_name} sent in SM_NOTIFY: the name or address NFSv3 clients mounted this server by, which their
   * statd matches (by name or by resolving it to addresses) against the servers it monitors. Default null: the address
   * of this server each client called, right when clients reach the gateway directly; behind a load balancer or a
   * Kubernetes Service set the balancer's address or name.
   */
  public NfsServerBuilder nsmName(String name) {
    this.nsmName = name == null || name.isBlank() ? null : name;
    return this;
  }

  String nsmName;
  /** Tries per host of SM_NOTIFY, and the wait after the first failure (doubled after each); tests shorten them. */
  int nsmAttempts = 5;
  Duration nsmFirstWait = Duration.ofSeconds(1);
  /** How long each GETPORT and SM_NOTIFY waits for its reply. */
  Duration nsmTimeout = Duration.ofSeconds(3);

  /** How long an NFS-open file stays open without READ/WRITE before it is released (uploaded); default 5 s. */
  public NfsServerBuilder openIdleTimeout(Duration d) {
    this.openIdle = Objects.requireNonNull(d);
    return this;
  }

  /**
   * Most TCP connections; default 1024. At the cap the connection idle longest (nothing in flight) is closed for
   * the new one; a new connection is refused only when every open one is busy.
   */
  public NfsServerBuilder maxConnections(int n) {
    this.maxConnections = n;
    return this;
  }

  /**
   * Calls in flight per connection (including replies written but not yet read by the client) before the server
   * stops reading that connection; default 3/16 of {@link #maxInFlight} (48 of 256), at least 1, at most
   * {@link #maxInFlightPerAddress}.
   */
  public NfsServerBuilder maxInFlightPerConnection(int n) {
    this.maxInFlightPerConnection = n;
    return this;
  }

  /**
   * Calls in flight from one client address, over all its connections, before the server stops reading them; default
   * {@link #maxInFlight} less {@link #maxInFlightPerConnection} (208 of 256), so another machine can always run as
   * many as one connection may. A client that sends without reading replies, over any number of connections, holds
   * this many calls and no more; at this cap its connections whose replies have not been read for
   * {@link #stallTimeout} are closed.
   */
  public NfsServerBuilder maxInFlightPerAddress(int n) {
    this.maxInFlightPerAddress = n;
    return this;
  }

  /**
   * Calls in flight in total before the server stops reading every connection. Each holds up to
   * {@link #CALL_BYTES} of heap (a READ or WRITE of 1 MiB), so the default is what half the heap holds, from 8 to 256
   * (30 with the 128 MiB heap of {@code memory_limit=256}, 256 from a 1 GiB heap); {@link #build} refuses more than
   * half the heap holds. At this cap, connections whose replies have not been read for {@link #stallTimeout} are
   * closed.
   */
  public NfsServerBuilder maxInFlight(int n) {
    this.maxInFlight = n;
    return this;
  }

  /** The calls in flight {@code heapBytes} of heap gives by default: half of it in {@link #CALL_BYTES}, 8 to 256. */
  public static int defaultMaxInFlight(long heapBytes) {
    return (int) Math.clamp(heapBytes / IN_FLIGHT_HEAP_SHARE / CALL_BYTES, 8, 256);
  }

  /** The most calls in flight {@code heapBytes} of heap holds ({@link #maxInFlight} may not be more). */
  public static long maxInFlightFor(long heapBytes) {
    return Math.max(8, heapBytes / IN_FLIGHT_HEAP_SHARE / CALL_BYTES);
  }

  /**
   * A connection with no call in flight and no byte buffered for this long is closed (NFSv3 keeps no connection
   * state; clients reconnect); default 6 minutes, as Linux knfsd. {@link Duration#ZERO}: never.
   */
  public NfsServerBuilder idleTimeout(Duration d) {
    this.idleTimeout = nonNegative(d);
    return this;
  }

  /**
   * A connection that has sent part of a record and nothing more for this long (no call in flight) is closed;
   * default 30 s. {@link Duration#ZERO}: never.
   */
  public NfsServerBuilder recordTimeout(Duration d) {
    this.recordTimeout = nonNegative(d);
    return this;
  }

  /**
   * While the server is at {@link #maxInFlight}, a connection whose queued replies have not been read for this long
   * is closed and its replies dropped; default 10 s. {@link Duration#ZERO}: never.
   */
  public NfsServerBuilder stallTimeout(Duration d) {
    this.stallTimeout = nonNegative(d);
    return this;
  }

  private static Duration nonNegative(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + d);
    }
    return d;
  }

  /** Grizzly selector (I/O) threads; default half the CPUs, at least 2. */
  public NfsServerBuilder selectorThreads(int n) {
    this.selectorThreads = n;
    return this;
  }

  /**
   * @throws IllegalArgumentException without exports, with duplicate export paths or ids, with a bad limit (calls in
   *     flight more than half the heap holds, a per-connection cap over the per-address one or that over the total),
   *     with neither {@link #nfsV3} nor {@link #nfsV41}, or with {@link #rpcbind} but not {@link #nfsV3}
   */
  public NfsServer build() {
    resolveInFlight();
    if (locks == null) {
      locks = new LockTable(10_000, 100_000);
    }
    if (exports.isEmpty()) {
      throw new IllegalArgumentException("an NFS server needs at least one export");
    }
    if (port < 0 || port > 65535 || rpcbindPort < 0 || rpcbindPort > 65535 || nsmRpcbindPort < 1
        || nsmRpcbindPort > 65535) {
      throw new IllegalArgumentException("port out of range");
    }
    if (maxConnections < 1 || maxInFlightPerConnection < 1 || maxInFlightPerAddress < 1 || maxInFlight < 1
        || selectorThreads < 1) {
      throw new IllegalArgumentException("limits must be positive");
    }
    if (maxInFlight > maxInFlightFor(heapBytes)) {
      throw new IllegalArgumentException("maxInFlight " + maxInFlight + " may hold " + maxInFlight * CALL_BYTES
          / (1 << 20) + " MiB of READ and WRITE buffers, more than half the heap (" + (heapBytes >> 20)
          + " MiB) holds: at most " + maxInFlightFor(heapBytes));
    }
    if (maxInFlightPerConnection > maxInFlightPerAddress || maxInFlightPerAddress > maxInFlight) {
      throw new IllegalArgumentException("calls in flight per connection (" + maxInFlightPerConnection
          + ") must be at most those per address (" + maxInFlightPerAddress + "), and those at most the total ("
          + maxInFlight + ")");
    }
    if (!nfsV3 && !nfsV41) {
      throw new IllegalArgumentException("no NFS version to serve: turn on nfsV3 or nfsV41");
    }
    if (rpcbind && !nfsV3) { // rpcbind serves v3 clients (MOUNT and NLM lookups); v4.1 clients never ask it
      throw new IllegalArgumentException("rpcbind needs NFSv3: without it there is nothing for rpcbind to name");
    }
    return new NfsServer(this);
  }

  private void resolveInFlight() {
    InFlight caps = InFlight.resolve(maxInFlight, maxInFlightPerAddress, maxInFlightPerConnection, heapBytes);
    maxInFlight = caps.total();
    maxInFlightPerAddress = caps.perAddress();
    maxInFlightPerConnection = caps.perConnection();
  }

  /**
   * The caps on calls in flight.
   *
   * @param total on the server
   * @param perAddress from one client address, over its connections
   * @param perConnection on one connection
   */
  public record InFlight(int total, int perAddress, int perConnection) {
    /**
     * The caps in force when those given are set and the others not (-1): the total from the heap
     * ({@link #defaultMaxInFlight}), per connection 3/16 of it, per address all but one connection's share (so
     * another machine can always run what one connection may). Nothing is checked here ({@link #build} does).
     */
    public static InFlight resolve(int total, int perAddress, int perConnection, long heapBytes) {
      int t = total == -1 ? defaultMaxInFlight(heapBytes) : total;
      int c = perConnection == -1
          ? (int) Math.clamp(t * 3L / 16, 1, Math.max(1, perAddress == -1 ? t - 1 : perAddress)) : perConnection;
      int a = perAddress == -1 ? Math.max(Math.min(c, t), t - c) : perAddress;
      return new InFlight(t, a, c);
    }
  }
}
