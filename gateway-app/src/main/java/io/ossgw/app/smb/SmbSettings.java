package io.ossgw.app.smb;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The process-wide SMB settings ({@code ossgw.smb.*}), resolved and validated.
 *
 * @param bind listen address; {@code 0.0.0.0} or {@code ::} for every interface
 * @param port TCP port (0 is not allowed: smbd cannot report the port it picked)
 * @param smbd the smbd binary (absolute path)
 * @param logLevel smb.conf {@code log level}
 * @param stopTimeout SIGTERM to SIGKILL grace period
 * @param users the SMB users with their passwords
 * @param stateDir {@code <state-dir>/smb}
 */
public record SmbSettings(String bind, int port, Path smbd, int logLevel, Duration stopTimeout, List<SmbUser> users,
    Path stateDir, boolean strictSync) {
  public SmbSettings {
    users = List.copyOf(users);
  }

  /** Settings with smb.conf's {@code strict sync = no} (a client's FLUSH is not an fsync). */
  public SmbSettings(String bind, int port, Path smbd, int logLevel, Duration stopTimeout, List<SmbUser> users,
      Path stateDir) {
    this(bind, port, smbd, logLevel, stopTimeout, users, stateDir, false);
  }

  /** These settings with {@link #strictSync} set to {@code on}. */
  public SmbSettings withStrictSync(boolean on) {
    return new SmbSettings(bind, port, smbd, logLevel, stopTimeout, users, stateDir, on);
  }

  /** True when smbd should listen on every interface. */
  public boolean allInterfaces() {
    return bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("*");
  }

  /** The address to probe for "smbd is listening": loopback when it listens everywhere. */
  public String probeAddress() {
    return allInterfaces() ? (bind.equals("::") ? "::1" : "127.0.0.1") : bind;
  }
}
