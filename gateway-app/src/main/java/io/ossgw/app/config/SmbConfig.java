package io.ossgw.app.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ossgw.smb.*}: the Samba {@code smbd} that {@code serve} runs when at least one {@code ossgw.shares.<name>} is
 * configured (see {@link SharesConfig}), and the SMB users it accepts. Example:
 *
 * <pre>
 * ossgw.smb.port=445
 * ossgw.smb.users.alice.password-file=/run/secrets/alice
 * ossgw.shares.data.bucket=my-bucket
 * </pre>
 */
@ConfigMapping(prefix = "ossgw.smb")
public interface SmbConfig {
  /**
   * {@code ossgw.smb.bind}: the address smbd listens on (smb.conf {@code interfaces}); {@code 0.0.0.0} or {@code ::}
   * means every interface. Default {@code 0.0.0.0}.
   */
  @WithDefault("0.0.0.0")
  String bind();

  /** {@code ossgw.smb.port}: the TCP port (smb.conf {@code smb ports}; SMB2/3 use 445). Default 445. */
  @WithDefault("445")
  int port();

  /**
   * {@code ossgw.smb.smbd}: the smbd binary, a path or a name looked up in PATH, /usr/sbin and /sbin (Debian package
   * {@code samba}). Default {@code smbd}.
   */
  @WithDefault("smbd")
  String smbd();

  /**
   * {@code ossgw.smb.log-level}: smb.conf {@code log level} of the smbd whose log the gateway forwards (0 errors only,
   * 1 notable events, 3+ debugging). Default 1.
   */
  @WithDefault("1")
  int logLevel();

  /**
   * {@code ossgw.smb.strict-sync}: smb.conf {@code strict sync}: a client's FLUSH (fsync(2) on a CIFS mount,
   * FlushFileBuffers on Windows) becomes an fsync of the file, which uploads it to OSS before the reply, so what a
   * client flushed survives a crash of the gateway or a failover. Off, a file reaches OSS at its close (and a FLUSH
   * costs nothing). Default: on with {@code ossgw.cluster.store} (a standby may have to serve the file next), off
   * otherwise.
   */
  java.util.Optional<Boolean> strictSync();

  /**
   * {@code ossgw.smb.stop-timeout}: on shutdown smbd gets SIGTERM, then SIGKILL after this long. Default 10 s.
   */
  @WithDefault("10s")
  Duration stopTimeout();

  /**
   * {@code ossgw.smb.users.<user>.*}: the SMB users (NTLM accounts in the gateway's own passdb). Each needs a Unix
   * account of the same name, which the gateway creates when missing ({@code useradd --system}). Default: none.
   */
  Map<String, User> users();

  /** One SMB user. */
  interface User {
    /**
     * {@code ossgw.smb.users.<user>.password-file}: a file holding the password (one trailing newline is ignored), e.g.
     * a Kubernetes secret. Default: none; one of password-file and password is required.
     */
    Optional<Path> passwordFile();

    /**
     * {@code ossgw.smb.users.<user>.password}: the password itself, for tests and demos (prefer password-file).
     * Default: none.
     */
    Optional<String> password();
  }
}
