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
}
