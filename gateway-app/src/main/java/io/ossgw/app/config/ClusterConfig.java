package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code ossgw.cluster.*}: several gateways on one bucket (issue 23), coordinated through a Valkey or Redis server.
 * Without {@link #store()} nothing here applies and the gateway runs alone, exactly as before. Every value is checked
 * at start-up ({@code io.ossgw.app.cluster.ClusterSettings}); README "Cluster" and docs/deploy.md describe the layout.
 */
@ConfigMapping(prefix = "ossgw.cluster")
public interface ClusterConfig {
  /**
   * {@code ossgw.cluster.store}: the store's URL, {@code redis://[USER@]HOST[:PORT][/DB]} or {@code valkey://...}
   * (plain TCP), {@code rediss://} or {@code valkeys://} (TLS). Default: none (a single gateway). The password does
   * not belong in the URL: see {@link #passwordFile()}.
   */
  Optional<String> store();

  /**
   * {@code ossgw.cluster.mode}: {@code standby} (one gateway serves, holding the lease; the others are ready to take
   * over and report not-ready) or {@code active} (every gateway serves NFS; caches are kept coherent by
   * invalidations). Default {@code standby}.
   */
  @WithDefault("standby")
  Mode mode();

  /**
   * {@code ossgw.cluster.name}: the cluster's name; the store's keys are {@code ossgw:NAME:*}, so one store serves
   * several clusters. Letters, digits, {@code .}, {@code _} and {@code -}. Default {@code default}.
   */
  @WithDefault("default")
  String name();

  /**
   * {@code ossgw.cluster.node-id}: this gateway's name in the cluster (logs, metrics, the lease holder). Default: the
   * host name (a pod's name in Kubernetes) and the process id, {@code HOST-PID}.
   */
  Optional<String> nodeId();

  /**
   * {@code ossgw.cluster.lease-ttl}: the serving lease's time to live. A holder that cannot renew for this long
   * (less a tenth) stops serving; a standby takes over after it. Default 5 s; 1 s to 5 min.
   */
  @WithDefault("5s")
  Duration leaseTtl();

  /**
   * {@code ossgw.cluster.renew-interval}: how often the holder renews and a standby asks for the lease. Default a
   * fifth of {@code lease-ttl}; below half of it.
   */
  Optional<Duration> renewInterval();

  /**
   * {@code ossgw.cluster.timeout}: the longest one store request may take outside the lease's own (which end within
   * its validity). Default 2 s.
   */
  @WithDefault("2s")
  Duration timeout();

  /**
   * {@code ossgw.cluster.password-file}: a file holding the store's password (first line; Kubernetes Secret or Docker
   * secret). Must not be readable by others. Default: none.
   */
  Optional<Path> passwordFile();

  /**
   * {@code ossgw.cluster.password}: the store's password, meant to come from the environment
   * ({@code OSSGW_CLUSTER_PASSWORD}); {@link #passwordFile()} wins. Never logged. Default: none (no AUTH).
   */
  Optional<String> password();

  /**
   * {@code ossgw.cluster.tls-ca-file}: PEM file of the CA that signed the store's certificate (with {@code rediss://}
   * or {@code valkeys://}). Default: the JVM's trust store.
   */
  Optional<Path> tlsCaFile();

  /** How the gateways of a cluster share the work. */
  enum Mode { STANDBY, ACTIVE }
}
