package io.ossgw.app.cli;

import io.ossgw.app.config.ConfigFileSourceProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Settings that must be in place before Quarkus reads its configuration, derived from the command line.
 *
 * <ul>
 *   <li>Only {@code serve} listens on HTTP: for every other command {@code quarkus.http.host-enabled=false}, so two
 *       {@code ossgw mount}s (or a mount next to a running {@code serve}) never fight over port 8080. An explicit
 *       {@code -Dquarkus.http.host-enabled} wins.
 *   <li>{@code serve --config FILE} adds FILE as a config source ({@link ConfigFileSourceProvider}, ordinal 270), so
 *       everything in it, {@code quarkus.http.port} included, takes effect at start-up. It wins over
 *       application.properties; environment variables and {@code -D} system properties win over both.
 *   <li>The quick form {@code serve BUCKET[:/PREFIX] --nfs ... -o OPTIONS} becomes {@code ossgw.*} system properties
 *       ({@link QuickServe}); they win over everything else. Its safe defaults (NFS, health and metrics on
 *       127.0.0.1, {@link QuickServe#defaults}) apply only where no system property or environment variable sets the
 *       key.
 * </ul>
 */
public final class LaunchSettings {
  static final String HOST_ENABLED = "quarkus.http.host-enabled";
  static final String CONFIG_FILE = ConfigFileSourceProvider.FILE_PROPERTY;

  private LaunchSettings() {}

  /** Applies the settings as system properties. @return a problem to report, or null */
  public static String apply(String[] args) {
    String command = command(args);
    if (!"serve".equals(command)) {
      setIfAbsent(HOST_ENABLED, "false");
      return "cluster".equals(command) ? configSource(args) : null; // ossgw cluster reads the serve's config file
    }
    int at = Arrays.asList(args).indexOf("serve");
    try {
      List<String> rest = List.of(args).subList(at + 1, args.length);
      QuickServe.properties(rest).forEach(System::setProperty);
      QuickServe.defaults(rest).forEach((k, v) -> {
        if (System.getProperty(k) == null && System.getenv(envName(k)) == null) {
          System.setProperty(k, v);
        }
      });
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    return configSource(args);
  }

  /** {@code --config FILE} as a config source. @return a problem to report, or null */
  private static String configSource(String[] args) {
    String file = configFile(args);
    if (file == null) {
      return null;
    }
    Path p = Path.of(file).toAbsolutePath().normalize();
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      return "config file " + p + " does not exist or is not readable";
    }
    // Not quarkus.config.locations: as a system property it would give FILE the ordinal of -D (400).
    System.setProperty(CONFIG_FILE, p.toString());
    return null;
  }

  /** The environment variable MicroProfile Config reads for {@code key}: {@code ossgw.nfs.bind} is OSSGW_NFS_BIND. */
  static String envName(String key) {
    return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT);
  }

  /** The subcommand: the first argument that is not an option, or null. */
  static String command(String[] args) {
    for (String a : args) {
      if (!a.startsWith("-")) {
        return a;
      }
    }
    return null;
  }

  /** The value of {@code --config FILE} or {@code --config=FILE} after the subcommand, or null. */
  static String configFile(String[] args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--config") && i + 1 < args.length) {
        return args[i + 1];
      }
      if (args[i].startsWith("--config=")) {
        return args[i].substring("--config=".length());
      }
    }
    return null;
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
