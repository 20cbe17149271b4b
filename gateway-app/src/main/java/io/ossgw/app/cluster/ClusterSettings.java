package io.ossgw.app.cluster;

import io.ossgw.app.config.ClusterConfig;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code ossgw.cluster.*} checked: the store URL ({@code redis}, {@code rediss}, {@code valkey}, {@code valkeys}
 * schemes; valkey is Redis's protocol under another name), the password (file first, then the property, which is
 * meant for the environment), the node id and the lease timing.
 *
 * @param url the URL as configured, with {@code valkey[s]://} turned into {@code redis[s]://}
 * @param tls whether the connection uses TLS ({@code rediss}, {@code valkeys})
 */
public record ClusterSettings(String url, boolean tls, ClusterConfig.Mode mode, String name, String nodeId,
    Duration leaseTtl, Duration renewInterval, Duration timeout, Optional<String> password, Optional<Path> tlsCaFile) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern NODE = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");

  /**
   * Checks the configuration.
   *
   * @param hostName this host's name (the default node id's first part)
   * @return empty without {@code ossgw.cluster.store} (a single gateway)
   * @throws IllegalArgumentException listing every problem, one per line, each naming its key
   */
  public static Optional<ClusterSettings> from(ClusterConfig c, String hostName, long pid) {
    if (c.store().isEmpty() || c.store().get().isBlank()) {
      return Optional.empty();
    }
    List<String> problems = new ArrayList<>();
    String raw = c.store().get().trim();
    String url = null;
    boolean tls = false;
    try {
      URI u = new URI(raw);
      String scheme = u.getScheme() == null ? "" : u.getScheme();
      switch (scheme) {
        case "redis", "valkey" -> url = "redis" + raw.substring(scheme.length());
        case "rediss", "valkeys" -> {
          url = "rediss" + raw.substring(scheme.length());
          tls = true;
        }
        default -> problems.add("ossgw.cluster.store must be a redis://, rediss://, valkey:// or valkeys:// URL, got "
            + redact(raw));
      }
      if (url != null && (u.getHost() == null || u.getHost().isEmpty())) {
        problems.add("ossgw.cluster.store has no host: " + redact(raw));
      }
      if (u.getUserInfo() != null && u.getUserInfo().contains(":")) {
        problems.add("ossgw.cluster.store must not hold the password (it would be logged and shown): use "
            + "ossgw.cluster.password-file or OSSGW_CLUSTER_PASSWORD");
      }
    } catch (URISyntaxException e) {
      problems.add("ossgw.cluster.store is not a URL: " + e.getMessage());
    }
    if (!NAME.matcher(c.name()).matches()) {
      problems.add("ossgw.cluster.name must be 1 to 64 letters, digits, '.', '_' or '-', got '" + c.name() + "'");
    }
    String node = c.nodeId().orElse(hostName + "-" + pid);
    if (!NODE.matcher(node).matches()) {
      problems.add("ossgw.cluster.node-id must be 1 to 128 letters, digits, '.', '_', ':', '@' or '-', got '" + node
          + "'");
    }
    Duration ttl = c.leaseTtl();
    if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(Duration.ofMinutes(5)) > 0) {
      problems.add("ossgw.cluster.lease-ttl must be from 1s to 5m, got " + ttl);
    }
    Duration renew = c.renewInterval().orElse(ttl.dividedBy(5));
    if (renew.isNegative() || renew.isZero() || renew.multipliedBy(2).compareTo(ttl) >= 0) {
      problems.add("ossgw.cluster.renew-interval must be above 0 and below half of ossgw.cluster.lease-ttl (" + ttl
          + "), got " + renew);
    }
    if (c.timeout().toMillis() < 10 || c.timeout().compareTo(Duration.ofMinutes(1)) > 0) {
      problems.add("ossgw.cluster.timeout must be from 10ms to 1m, got " + c.timeout());
    }
    Optional<String> password = c.password().filter(p -> !p.isEmpty());
    if (c.passwordFile().isPresent()) {
      password = readPassword(c.passwordFile().get(), problems);
    }
    c.tlsCaFile().ifPresent(ca -> {
      if (!Files.isReadable(ca)) {
        problems.add("ossgw.cluster.tls-ca-file " + ca + " cannot be read");
      }
    });
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("\n", problems));
    }
    return Optional.of(new ClusterSettings(url, tls, c.mode(), c.name(), node, ttl, renew, c.timeout(), password,
        c.tlsCaFile()));
  }

  private static Optional<String> readPassword(Path file, List<String> problems) {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      if (perms.contains(PosixFilePermission.OTHERS_READ)) {
        problems.add("ossgw.cluster.password-file " + file + " is readable by others: chmod 600 it");
        return Optional.empty();
      }
      String first = Files.readAllLines(file).stream().findFirst().orElse("").strip();
      if (first.isEmpty()) {
        problems.add("ossgw.cluster.password-file " + file + " is empty");
      }
      return Optional.of(first);
    } catch (IOException | UnsupportedOperationException e) {
      problems.add("ossgw.cluster.password-file " + file + " cannot be read: " + e.getMessage());
      return Optional.empty();
    }
  }

  /** The URL with any user info dropped, for messages. */
  static String redact(String url) {
    return url.replaceAll("//[^@/]*@", "//");
  }

  /** The URL to show in logs and health (no user info). */
  public String displayUrl() {
    return redact(url);
  }

  /** The connection string the client takes. */
  String connectionString() {
    return url;
  }

  /** The store key of {@code suffix} in this cluster: {@code ossgw:NAME:SUFFIX}. */
  public String key(String suffix) {
    return "ossgw:" + name + ":" + suffix;
  }

  @Override
  public String toString() { // never the password
    return "ClusterSettings[" + displayUrl() + ", " + mode + ", node " + nodeId + ", ttl " + leaseTtl + "]";
  }
}
