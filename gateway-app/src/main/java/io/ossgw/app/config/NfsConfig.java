package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * {@code ossgw.nfs.*}: the NFSv3 + MOUNT v3 server (RFC 1813) that {@code serve} runs when at least one
 * {@code ossgw.exports.<name>} is configured. NFS and MOUNT share one TCP port.
 */
@ConfigMapping(prefix = "ossgw.nfs")
public interface NfsConfig {
  /** {@code ossgw.nfs.bind}: listen address. Default {@code 0.0.0.0} (all interfaces). */
  @WithDefault("0.0.0.0")
  String bind();

  /** {@code ossgw.nfs.port}: the TCP port of NFS and MOUNT; 0 = any free port. Default 2049. */
  @WithDefault("2049")
  int port();

  /**
   * {@code ossgw.nfs.rpcbind}: also answer rpcbind/portmap (port 111 of the same address) for clients that ask it
   * where NFS and MOUNT are. Default {@code false}: clients pass {@code port=2049,mountport=2049}.
   */
  @WithDefault("false")
  boolean rpcbind();

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
   * {@code ossgw.nfs.stall-timeout}: while {@code max-in-flight} calls are in flight, a connection whose replies have
   * not been read for this long is closed and its replies dropped. Default 10s; 0 = never.
   */
  @WithDefault("10s")
  Duration stallTimeout();

  /**
   * {@code ossgw.nfs.max-in-flight-per-connection}: calls in flight on one connection (replies not yet read
   * included) before the server stops reading it. Default 48.
   */
  @WithDefault("48")
  int maxInFlightPerConnection();

  /**
   * {@code ossgw.nfs.max-in-flight}: calls in flight on the server before it stops reading every connection; each
   * READ or WRITE holds up to 1 MiB, so this bounds the NFS buffers (256 MiB by default). Default 256.
   */
  @WithDefault("256")
  int maxInFlight();
}
