package io.ossgw.app.serve;

import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.ExportsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.app.mount.MountSource;
import io.ossgw.app.mount.ProcessIds;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.nfs.export.Cidr;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns {@code ossgw.exports.*} into one {@link PlannedExport} per export, checking before anything starts: bucket
 * and prefix, option names and ranges (as {@code ossgw mount} does), the export path (absolute, unique), the client
 * CIDRs, anon ids, credentials, and that every mount or export sharing an engine (same endpoint, bucket and prefix)
 * asks for the same engine options. All problems are reported together in one {@link ConfigException}.
 */
public final class ExportPlanner {
  /**
   * One planned export.
   *
   * @param name the {@code ossgw.exports.<name>} label
   * @param path the path clients mount, e.g. {@code /bucket/prefix}
   * @param engine the engine it serves (shared with mounts and exports of the same endpoint/bucket/prefix)
   * @param settings the exports(5) settings
   */
  public record PlannedExport(String name, String path, EngineConfig engine, ExportsConfig.Export settings) {
    /** The squash mode as the NFS server names it. */
    public Squash squash() {
      return switch (settings.squash()) {
        case ROOT -> Squash.ROOT_SQUASH;
        case ALL -> Squash.ALL_SQUASH;
        case NONE -> Squash.NO_ROOT_SQUASH;
      };
    }
  }

  private ExportPlanner() {}

  /**
   * @param mounts the FUSE mounts already planned (their engines are shared when the keys match)
   * @param emulatorEndpoint the embedded emulator's endpoint when {@code ossgw.oss.endpoint} is unset, else null
   * @throws ConfigException listing every problem
   */
  public static List<PlannedExport> plan(OssConfig oss, ExportsConfig exports, DefaultOptionsConfig defaults,
      Path stateDir, String emulatorEndpoint, Map<String, String> env, List<ServePlanner.Planned> mounts) {
    List<String> problems = new ArrayList<>();
    String endpoint = oss.endpoint().map(String::strip).orElse(emulatorEndpoint);
    Map<EngineKey, String> engineOwner = new HashMap<>();
    Map<EngineKey, EngineConfig> engines = new HashMap<>();
    for (ServePlanner.Planned m : mounts) {
      EngineConfig ec = m.plan().engine();
      engines.putIfAbsent(EngineKey.of(ec), ec);
      engineOwner.putIfAbsent(EngineKey.of(ec), "ossgw.mounts." + m.name());
    }
    Map<String, String> byPath = new HashMap<>();
    List<PlannedExport> out = new ArrayList<>();
    for (var e : new TreeMap<>(exports.all()).entrySet()) {
      String at = "ossgw.exports." + e.getKey();
      ExportsConfig.Export x = e.getValue();
      try {
        MountSource src = MountSource.of(x.bucket(), x.prefix().orElse(""));
        String path = x.path().map(String::strip).orElse(defaultPath(src));
        Export.checkPath(path); // the NFS server's own rule, so planning and start-up agree
        for (String c : x.clients()) {
          Cidr.parse(c);
        }
        checkId("anon-uid", x.anonUid());
        checkId("anon-gid", x.anonGid());
        MountOptions opts = ServePlanner.options(at, defaults.values(), x.options(), oss, endpoint);
        Credentials creds = emulatorEndpoint != null && oss.endpoint().isEmpty()
            ? ServePlanner.EMULATOR_CREDENTIALS : ServePlanner.credentials(oss, opts, src.bucket(), env);
        EngineConfig ec = EngineConfig.fromOptions(src.bucket(), src.prefix(), opts, creds, ProcessIds.uid(),
            ProcessIds.gid(), stateDir);
        String other = byPath.putIfAbsent(path, e.getKey());
        if (other != null) {
          problems.add(at + ".path: " + path + " is also the path of ossgw.exports." + other);
          continue;
        }
        EngineConfig sharing = engines.putIfAbsent(EngineKey.of(ec), ec);
        if (sharing != null && !sharing.equals(ec)) {
          problems.add(at + ": shares bucket " + src + " (one engine) with " + engineOwner.get(EngineKey.of(ec))
              + " but sets different engine options; make them equal");
          continue;
        }
        engineOwner.putIfAbsent(EngineKey.of(ec), at);
        out.add(new PlannedExport(e.getKey(), path, ec, x));
      } catch (IllegalArgumentException ex) {
        problems.add(at + ": " + ex.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return out;
  }

  /** {@code /bucket}, or {@code /bucket/a/b} for prefix {@code a/b/}. */
  static String defaultPath(MountSource src) {
    return src.prefix().isEmpty() ? "/" + src.bucket()
        : "/" + src.bucket() + "/" + src.prefix().substring(0, src.prefix().length() - 1);
  }

  private static void checkId(String what, int id) {
    if (id < 0) {
      throw new IllegalArgumentException(what + " must be 0 or more, got " + id);
    }
  }

}
