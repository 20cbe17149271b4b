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
 * [-o OPTIONS]}, translated into the {@code ossgw.*} properties a configuration file would hold, so that both forms
 * run the same code:
 *
 * <ul>
 *   <li>{@code --nfs}: {@code ossgw.exports.<bucket>.bucket} and {@code .prefix}, exported as {@code /BUCKET} or
 *       {@code /BUCKET/PREFIX}; {@code --nfs-port} and {@code --nfs-bind}: {@code ossgw.nfs.port} and
 *       {@code ossgw.nfs.bind}.
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
  static final Set<String> WITH_VALUE = Set.of("--config", "-o", "--nfs-port", "--nfs-bind", "--smb-port",
      "--smb-bind", "--smb-user");

  private QuickServe() {}

  /**
   * @param args the arguments after {@code serve}
   * @return the properties to set (empty when the quick form is not used)
   * @throws IllegalArgumentException for a bad BUCKET, a bad option, BUCKET without a front end or a front end
   *     without BUCKET
   */
  static Map<String, String> properties(List<String> args) {
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
