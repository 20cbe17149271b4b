package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code ossgw.nfs.*}: the NFS server that {@code serve} runs when at least one {@code ossgw.exports.<name>} is
 * configured: NFSv3 with MOUNT v3 and NLM v4 (RFC 1813) and NFSv4.1 (RFC 8881), all on one TCP port. Values are
 * checked when {@code serve} starts ({@code io.ossgw.app.serve.NfsFrontEnd#problems}).
 */
@ConfigMapping(prefix = "ossgw.nfs")
public interface NfsConfig {
  /** {@code ossgw.nfs.bind}: listen address. Default {@code 0.0.0.0} (all interfaces). */
  @WithDefault("0.0.0.0")
  String bind();

  /**
   * {@code ossgw.nfs.port}: the TCP port of every NFS version served (and of MOUNT and NLM with version 3); 0 = any
   * free port. Default 2049, the port NFSv4 clients use without being told.
   */
  @WithDefault("2049")
  int port();

  /**
   * {@code ossgw.nfs.versions}: the NFS versions served, comma-separated, in any combination: {@code 3} (NFSv3 with
   * MOUNT v3 and NLM v4 locks, RFC 1813) and {@code 4.1} (NFSv4.1, RFC 8881: locks in the protocol, one port, no
   * rpcbind). Default {@code 3,4.1}. Anything else (4.0, 4.2, 4) is refused at start-up; a client asking for a version
   * not served gets PROG_MISMATCH (or NFS4ERR_MINOR_VERS_MISMATCH for 4.0/4.2) and settles on one that is.
   */
  @WithDefault("3,4.1")
  List<String> versions();

  /**
   * {@code ossgw.nfs.rpcbind}: also answer rpcbind/portmap (port 111 of the same address) for NFSv3 clients that ask
   * it where NFS, MOUNT and NLM are. Default {@code false}: v3 clients pass {@code port=2049,mountport=2049} (and
   * {@code nolock}, as their lockd finds NLM only through rpcbind); v4.1 clients never need it. Needs version 3 in
   * {@code ossgw.nfs.versions}.
   */
  @WithDefault("false")
  boolean rpcbind();

  /**
   * {@code ossgw.nfs.nsm-name}: the name sent as {@code mon_name} in the SM_NOTIFY that tells NFSv3 clients holding NLM
   * locks of a restart or takeover (so they reclaim them): the host name or address the clients mounted, which their
   * statd matches against the servers it monitors. Default: the gateway's address each client called, right when
   * clients reach the gateway directly; behind a load balancer or a Kubernetes Service (cluster standby mode) set the
   * balancer's address or DNS name.
   */
  java.util.Optional<String> nsmName();

  /**
   * {@code ossgw.nfs.nsm-rpcbind-port}: the port of the NFSv3 clients' rpcbind, where the gateway looks their statd up
   * (PMAPPROC_GETPORT over UDP) to send them SM_NOTIFY. Default 111, the port every rpcbind listens on; 1 to 65535.
   */
  @WithDefault("111")
  int nsmRpcbindPort();

  /** {@code ossgw.nfs.v4.*}: NFSv4.1 settings (used when {@code ossgw.nfs.versions} has 4.1). */
  V4 v4();

  /** {@code ossgw.nfs.v4.*}. */
  interface V4 {
    /**
     * {@code ossgw.nfs.v4.lease-time}: the NFSv4.1 lease (RFC 8881 §8.3, attribute lease_time): a client that sends
     * nothing for this long loses its opens and locks. Default 90s, as Linux knfsd; whole seconds, 1s to 1h.
     */
    @WithDefault("90s")
    Duration leaseTime();

    /**
     * {@code ossgw.nfs.v4.grace-time}: the longest grace period after a restart (RFC 8881 §8.4.2), in which clients
     * known from before reclaim their opens and locks and new ones wait (NFS4ERR_GRACE); it ends earlier when every
     * such client has sent RECLAIM_COMPLETE, and is skipped when none is known. Default 90s; 0s to 1h (0: no grace,
     * so state held before a restart cannot be reclaimed). Keep it at least the lease time.
     */
    @WithDefault("90s")
    Duration graceTime();
  }

  /**
   * {@code ossgw.nfs.durable-create}: NFSv3 CREATE and NFSv4.1 OPEN4_CREATE put the new, empty object in OSS before
   * they reply (RFC 1813 §3.3.8), one PutObject more per created file, so a file whose gateway dies before the
   * client's first COMMIT or close is still there for the client's resent WRITEs (on the restarted gateway, or on the
   * replica that serves next). Default: on with {@code ossgw.cluster.store} (another gateway may have to serve the
   * file next), off otherwise (the object appears at the first COMMIT or close, as ossfs creates files).
   */
  Optional<Boolean> durableCreate();

  /**
   * {@code ossgw.nfs.open-idle-timeout}: NFSv3 has no close; a file written by a client and idle this long is
   * uploaded and released (COMMIT uploads at once). Default 5s; at least 1s.
   */
  @WithDefault("5s")
  Duration openIdleTimeout();

  /**
   * {@code ossgw.nfs.max-connections}: most TCP connections; at the cap the connection idle longest is closed for a
   * new one (refused only when all are busy). Default 1024.
   */
  @WithDefault("1024")
  int maxConnections();

  /**
   * {@code ossgw.nfs.idle-timeout}: a connection with no call in flight and nothing buffered this long is closed
   * (clients reconnect; NFSv3 keeps no connection state). Default 6m, as Linux knfsd; 0 = never.
   */
  @WithDefault("6m")
  Duration idleTimeout();

  /**
   * {@code ossgw.nfs.record-timeout}: a connection that has sent part of an RPC record, and nothing in flight, this
   * long is closed. Default 30s; 0 = never.
   */
  @WithDefault("30s")
  Duration recordTimeout();

  /**
   * {@code ossgw.nfs.stall-timeout}: while {@code max-in-flight} calls are in flight, or a client address holds its
   * {@code max-in-flight-per-address}, a connection whose replies have not been read for this long is closed
   * abortively (a TCP reset) and its replies dropped, which releases its calls at once. Default 10s; 0 = never.
   */
  @WithDefault("10s")
  Duration stallTimeout();

  /**
   * {@code ossgw.nfs.max-in-flight-per-connection}: calls in flight on one connection (replies not yet read
   * included) before the server stops reading it. Default 3/16 of {@code max-in-flight} (48 of 256); at most
   * {@code max-in-flight-per-address}.
   */
  OptionalInt maxInFlightPerConnection();

  /**
   * {@code ossgw.nfs.max-in-flight-per-address}: calls in flight from one client address, over all its connections,
   * before the server stops reading them, so one machine leaves room for the others. Default {@code max-in-flight}
   * less {@code max-in-flight-per-connection} (208 of 256): another machine can always run what one connection may;
   * at most {@code max-in-flight}.
   */
  OptionalInt maxInFlightPerAddress();

  /**
   * {@code ossgw.nfs.max-in-flight}: calls in flight on the server before it stops reading every connection. Each
   * READ or WRITE may hold 2 MiB of heap, so the default is what half the heap holds, 8 to 256 (30 at
   * {@code memory_limit=256}, 256 from {@code memory_limit=2048}); more than half the heap holds is refused at
   * start-up.
   */
  OptionalInt maxInFlight();
}
