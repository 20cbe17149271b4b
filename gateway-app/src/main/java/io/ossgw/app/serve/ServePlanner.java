package io.ossgw.app.serve;

import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.MountsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.app.mount.MountPlan;
import io.ossgw.app.mount.MountPlanner;
import io.ossgw.app.mount.MountSource;
import io.ossgw.app.mount.StateDirs;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.CredentialsResolver;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the {@code serve} configuration into one {@link MountPlan} per {@code ossgw.mounts.<name>}, checking
 * everything that can be checked before touching the network: option names and ranges (as {@code ossgw mount} does),
 * credentials, mount points, and that mounts sharing an engine agree on its options. All problems are reported
 * together in one {@link ConfigException}.
 */
public final class ServePlanner {
  /** Credentials the embedded emulator accepts (its auth is off, but the SDK needs a pair to sign with). */
  static final Credentials EMULATOR_CREDENTIALS = new Credentials("ossgw-emulator", "ossgw-emulator");

  /** A mount's name and plan. */
  public record Planned(String name, MountPlan plan) {}

  private ServePlanner() {}

  /**
   * @param oss {@code ossgw.oss.*}
   * @param mounts {@code ossgw.mounts.*}
   * @param defaults {@code ossgw.options.*}
   * @param stateDir the state directory
   * @param emulatorEndpoint the embedded emulator's endpoint when {@code ossgw.oss.endpoint} is unset (its
   *     credentials are then used), else null
   * @param env the environment (credentials)
   * @throws ConfigException listing every problem
   */
  public static List<Planned> plan(OssConfig oss, MountsConfig mounts, DefaultOptionsConfig defaults, Path stateDir,
      String emulatorEndpoint, Map<String, String> env) {
    List<String> problems = new ArrayList<>();
    if (oss.accessKeyId().isPresent() != oss.accessKeySecret().isPresent()) {
      problems.add("ossgw.oss.access-key-id and ossgw.oss.access-key-secret must be set together");
    }
    String endpoint = oss.endpoint().map(String::strip).orElse(emulatorEndpoint);
    if (endpoint == null || endpoint.isBlank()) {
      problems.add("ossgw.oss.endpoint is empty");
    }
    List<Planned> out = new ArrayList<>();
    Map<Path, String> byMountpoint = new HashMap<>();
    Map<EngineKey, Planned> byEngine = new HashMap<>();
    for (var e : new TreeMap<>(mounts.all()).entrySet()) {
      String name = e.getKey();
      String at = "ossgw.mounts." + name;
      MountsConfig.Mount m = e.getValue();
      try {
        MountSource src = MountSource.of(m.bucket(), m.prefix().orElse(""));
        MountOptions opts = options(at, defaults.values(), m.options(), oss, endpoint);
        Credentials creds = emulatorEndpoint != null && oss.endpoint().isEmpty()
            ? EMULATOR_CREDENTIALS : credentials(oss, opts, src.bucket(), env);
        MountPlan plan = MountPlanner.plan(src, m.mountpoint(), opts, creds, false, false, stateDir);
        String other = byMountpoint.putIfAbsent(plan.mountpoint(), name);
        if (other != null) {
          problems.add(at + ".mountpoint: " + plan.mountpoint() + " is also the mount point of ossgw.mounts." + other);
          continue;
        }
        EngineConfig ec = plan.engine();
        Planned p = new Planned(name, plan);
        Planned sharing = byEngine.putIfAbsent(EngineKey.of(ec), p);
        if (sharing != null && !sharing.plan().engine().equals(ec)) {
          problems.add(at + ": mounts ossgw.mounts." + sharing.name() + " and " + name + " share bucket "
              + src + " (one engine) but set different engine options; make them equal");
          continue;
        }
        out.add(p);
      } catch (IllegalArgumentException | io.ossgw.fuse.MountException ex) {
        problems.add(at + ": " + ex.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return out;
  }

  /** {@code ossgw.options.*} overlaid with the mount's options, plus the endpoint, region and signature of ossgw.oss. */
  static MountOptions options(String at, Map<String, String> defaults, Map<String, String> own, OssConfig oss,
      String endpoint) {
    Map<String, String> merged = new LinkedHashMap<>(defaults);
    merged.putAll(own);
    if (!merged.containsKey("url") && !merged.containsKey("host") && endpoint != null) {
      merged.put("url", endpoint);
    }
    merged.putIfAbsent("region", oss.region());
    if (oss.signature() == OssConfig.Signature.V1 && !merged.containsKey("sigv4")) {
      merged.putIfAbsent("sigv1", "true");
    }
    try {
      return MountOptions.of(merged);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("options: " + e.getMessage(), e);
    }
  }

  /** ossgw.oss keys, then a mount's passwd_file, then ossgw.oss.passwd-file, then the ossfs sources. */
  static Credentials credentials(OssConfig oss, MountOptions opts, String bucket, Map<String, String> env) {
    if (oss.accessKeyId().isPresent() && oss.accessKeySecret().isPresent()) {
      return new Credentials(oss.accessKeyId().get().strip(), oss.accessKeySecret().get().strip());
    }
    var file = opts.get("passwd_file").map(Path::of).or(oss::passwdFile);
    if (file.isPresent()) {
      return CredentialsResolver.fromFile(file.get(), bucket);
    }
    return CredentialsResolver.resolve(bucket, null, env, StateDirs.home()).orElseThrow(() ->
        new IllegalArgumentException("no OSS credentials: set ossgw.oss.access-key-id and ossgw.oss.access-key-secret, "
            + "or ossgw.oss.passwd-file, or the environment variables OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET"));
  }
}
