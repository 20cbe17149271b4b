package io.ossgw.app.cli;

import io.ossgw.app.mount.MountSource;
import io.ossgw.core.config.MountOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The quick form of {@code serve}: {@code ossgw serve BUCKET[:/PREFIX] --nfs [--nfs-port P] [--nfs-bind ADDR]
 * [--nfs-clients CIDR] [--http-bind ADDR]
 * [-o OPTIONS]}, translated into the {@code ossgw.*} properties a configuration file would hold, so that both forms
 * run the same code:
 *
 * <ul>
 *   <li>{@code --nfs}: {@code ossgw.exports.<bucket>.bucket} and {@code .prefix}, exported as {@code /BUCKET} or
 *       {@code /BUCKET/PREFIX} over the default {@code ossgw.nfs.versions} (NFSv4.1 and NFSv3 on port 2049, no
 *       rpcbind: {@code mount -t nfs HOST:/BUCKET /mnt} negotiates 4.1; a v3 client passes
 *       {@code vers=3,port=2049,mountport=2049,nolock}); {@code --nfs-port} and {@code --nfs-bind}: {@code ossgw.nfs.port} and
 *       {@code ossgw.nfs.bind} (default here {@value #LOOPBACK}, see {@link #defaults}); {@code --nfs-clients
 *       CIDR[,CIDR]}: {@code ossgw.exports.<bucket>.clients} (default {@code *}).
 *   <li>{@code --http-bind ADDR} (also without BUCKET): {@code quarkus.http.host}, where health and metrics listen
 *       (default in the quick form {@value #LOOPBACK}).
 *   <li>{@code --smb}: {@code ossgw.shares.<bucket>.bucket} and {@code .prefix}, shared as {@code \\host\BUCKET};
 *       {@code --smb-port} and {@code --smb-bind}: {@code ossgw.smb.port} and {@code ossgw.smb.bind};
 *       {@code --smb-user NAME:PASSWORD_FILE} (repeatable): {@code ossgw.smb.users.NAME.password-file}.
 *   <li>{@code -o}: the options of {@code ossgw mount}, as {@code ossgw.options.<name>} (flags become {@code true});
 *       {@code url=} (or {@code host=}) becomes {@code ossgw.oss.endpoint}. Without one, the embedded emulator serves.
 * </ul>
 *
 * The properties are set as system properties before Quarkus starts ({@link LaunchSettings}), so they win over the
 * configuration file and the environment.
 */
final class QuickServe {
  /** Options of {@code serve} that take a value (so the value is not mistaken for BUCKET). */
  static final Set<String> WITH_VALUE = Set.of("--config", "-o", "--nfs-port", "--nfs-bind", "--nfs-clients",
      "--http-bind", "--smb-port", "--smb-bind", "--smb-user");

  /** Where the quick form listens unless told otherwise: this host only (issue 9 item 9). */
  static final String LOOPBACK = "127.0.0.1";

  private QuickServe() {}

  /**
   * @param args the arguments after {@code serve}
   * @return the properties to set (empty when neither the quick form nor {@code --http-bind} is used)
   * @throws IllegalArgumentException for a bad BUCKET, a bad option, BUCKET without a front end or a front end
   *     without BUCKET
   */
  static Map<String, String> properties(List<String> args) {
    return parse(args, new LinkedHashMap<>());
  }

  /**
   * The quick form's safe defaults, to apply only where neither a system property nor an environment variable sets
   * the key ({@link LaunchSettings}): without {@code --nfs-bind}, NFS listens on {@value #LOOPBACK}; without
   * {@code --http-bind}, so do health and metrics ({@code quarkus.http.host}). A container sets both to 0.0.0.0
   * through the environment (docker/entrypoint.sh).
   *
   * @param args the arguments after {@code serve}
   * @throws IllegalArgumentException as {@link #properties}
   */
  static Map<String, String> defaults(List<String> args) {
    Map<String, String> defaults = new LinkedHashMap<>();
    parse(args, defaults);
    return defaults;
  }

  private static Map<String, String> parse(List<String> args, Map<String, String> defaults) {
    String source = null;
    boolean nfs = false;
    boolean smb = false;
    List<String> smbUsers = new ArrayList<>();
    List<String> options = new ArrayList<>();
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String name = a.contains("=") && a.startsWith("--") ? a.substring(0, a.indexOf('=')) : a;
      String inline = name.equals(a) ? null : a.substring(a.indexOf('=') + 1);
      if (a.startsWith("-o") && !a.equals("-o")) {
        options.add(a.substring(2)); // -oOPTIONS, as mount(8) allows
      } else if (WITH_VALUE.contains(name)) {
        String v = inline != null ? inline : i + 1 < args.size() ? args.get(++i) : null;
        if (v == null) {
          throw new IllegalArgumentException(name + " needs a value");
        }
        if (name.equals("-o")) {
          options.add(v);
        } else if (name.equals("--smb-user")) {
          smbUsers.add(v);
        } else {
          values.put(name, v);
        }
      } else if (a.equals("--nfs")) {
        nfs = true;
      } else if (a.equals("--smb")) {
        smb = true;
      } else if (!a.startsWith("-")) {
        if (source != null) {
          throw new IllegalArgumentException("serve takes one BUCKET[:/PREFIX], got '" + source + "' and '" + a + "'");
        }
        source = a;
      }
    }
    Map<String, String> props = new LinkedHashMap<>();
    putIfSet(props, "quarkus.http.host", values.get("--http-bind"));
    boolean frontEndFlags = nfs || smb || !smbUsers.isEmpty() || values.keySet().stream()
        .anyMatch(k -> k.startsWith("--nfs-") || k.startsWith("--smb-"));
    if (source == null) {
      if (frontEndFlags || !options.isEmpty()) {
        throw new IllegalArgumentException("--nfs, --smb and -o need BUCKET[:/PREFIX]: ossgw serve BUCKET --nfs -o "
            + "OPTIONS");
      }
      return props;
    }
    MountSource src = MountSource.parse(source);
    if (!nfs && !smb) {
      throw new IllegalArgumentException("serve " + source + ": say how to serve it: --nfs (and/or --smb); for a FUSE "
          + "mount use: ossgw mount " + source + " MOUNTPOINT");
    }
    if (nfs) {
      String at = "ossgw.exports." + src.bucket();
      props.put(at + ".bucket", src.bucket());
      if (!src.prefix().isEmpty()) {
        props.put(at + ".prefix", "/" + src.prefix());
      }
      putIfSet(props, "ossgw.nfs.port", values.get("--nfs-port"));
      putIfSet(props, "ossgw.nfs.bind", values.get("--nfs-bind"));
      String clients = values.get("--nfs-clients");
      if (clients != null) {
        for (String c : clients.split(",")) {
          io.ossgw.nfs.export.Cidr.parse(c); // names a bad one now, not at start-up
        }
        props.put(at + ".clients", clients);
      }
      if (!values.containsKey("--nfs-bind")) {
        defaults.put("ossgw.nfs.bind", LOOPBACK);
      }
    } else if (values.containsKey("--nfs-port") || values.containsKey("--nfs-bind")
        || values.containsKey("--nfs-clients")) {
      throw new IllegalArgumentException("--nfs-port, --nfs-bind and --nfs-clients go with --nfs");
    }
    if (!values.containsKey("--http-bind")) {
      defaults.put("quarkus.http.host", LOOPBACK);
    }
    if (smb) {
      String at = "ossgw.shares." + src.bucket();
      props.put(at + ".bucket", src.bucket());
      if (!src.prefix().isEmpty()) {
        props.put(at + ".prefix", "/" + src.prefix());
      }
      putIfSet(props, "ossgw.smb.port", values.get("--smb-port"));
      putIfSet(props, "ossgw.smb.bind", values.get("--smb-bind"));
      for (String u : smbUsers) {
        int colon = u.indexOf(':');
        if (colon <= 0 || colon == u.length() - 1) {
          throw new IllegalArgumentException("--smb-user takes NAME:PASSWORD_FILE, got '" + u + "'");
        }
        props.put("ossgw.smb.users." + u.substring(0, colon) + ".password-file",
            java.nio.file.Path.of(u.substring(colon + 1)).toAbsolutePath().toString());
      }
    } else if (!smbUsers.isEmpty() || values.containsKey("--smb-port") || values.containsKey("--smb-bind")) {
      throw new IllegalArgumentException("--smb-user, --smb-port and --smb-bind go with --smb");
    }
    MountOptions opts = MountOptions.parse(options); // validates names and values, as ossgw mount does
    for (var e : opts.asMap().entrySet()) {
      String k = e.getKey();
      if (k.equals("url") || k.equals("host")) {
        props.put("ossgw.oss.endpoint", e.getValue());
      } else {
        props.put("ossgw.options." + k, e.getValue().isEmpty() ? "true" : e.getValue());
      }
    }
    return props;
  }

  private static void putIfSet(Map<String, String> props, String key, String value) {
    if (value != null) {
      props.put(key, value);
    }
  }
}
