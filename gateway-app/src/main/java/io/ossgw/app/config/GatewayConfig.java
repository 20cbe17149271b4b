package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code ossgw.*} settings of the gateway process itself. {@code ossgw.nfs.*} and {@code ossgw.smb.*} are reserved
 * for the NFS and SMB front ends.
 */
@ConfigMapping(prefix = "ossgw")
public interface GatewayConfig {
  /**
   * {@code ossgw.state-dir}: where ossgw keeps state (metadata store, the embedded emulator's data). Default
   * {@code /var/lib/ossgw} for root, else {@code ~/.local/state/ossgw}.
   */
  Optional<Path> stateDir();

  /** {@code ossgw.health.*}. */
  Health health();

  /** Health check settings. */
  interface Health {
    /**
     * {@code ossgw.health.oss-check-interval}: readiness re-checks that OSS answers at most this often (one
     * ListObjectsV2 with max-keys=1 per engine). Default 10 s; at least 1 s.
     */
    @WithDefault("10s")
    Duration ossCheckInterval();
  }
}
