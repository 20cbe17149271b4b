package io.ossgw.app.serve;

import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.app.config.SharesConfig;
import io.ossgw.app.config.SmbConfig;
import io.ossgw.app.mount.FuseOptionsMapper;
import io.ossgw.app.mount.MountPlanner;
import io.ossgw.app.mount.Mounter;
import io.ossgw.app.mount.ProcessIds;
import io.ossgw.app.smb.SmbPlanner;
import io.ossgw.app.smb.SmbService;
import io.ossgw.app.smb.SmbShare;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.fuse.FuseOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The SMB side of {@code serve}: the checked {@code ossgw.smb.*}/{@code ossgw.shares.*} plan ({@link SmbPlanner}),
 * each share's engine configuration (shared with the mounts and exports of the same endpoint/bucket/prefix, which
 * must then agree on its options) and FUSE options, and the {@link SmbService} that runs smbd over them.
 */
final class SmbFrontEnd {
  /** A share with its engine and FUSE configuration. */
  record PlannedShare(SmbPlanner.PlannedShare share, EngineConfig engine, FuseOptions fuse) {}

  /** The whole SMB plan. */
  record Plan(SmbPlanner.Plan smb, List<PlannedShare> shares) {}

  private SmbFrontEnd() {}

  /**
   * @param engines engine configurations already planned for mounts and exports, by key, with who owns them
   * @param emulatorEndpoint the embedded emulator's endpoint when {@code ossgw.oss.endpoint} is unset, else null
   * @throws ConfigException listing every problem
   * @throws io.ossgw.app.smb.SmbException when smbd is not installed
   */
  static Plan plan(OssConfig oss, SmbConfig smbConfig, SharesConfig shares, DefaultOptionsConfig defaults,
      Path stateDir, String emulatorEndpoint, Map<String, String> env, Map<EngineKey, EngineConfig> engines,
      Map<EngineKey, String> owners) {
    SmbPlanner.Plan smb = SmbPlanner.plan(smbConfig, shares, stateDir);
    String endpoint = oss.endpoint().map(String::strip).orElse(emulatorEndpoint);
    List<String> problems = new ArrayList<>();
    Map<EngineKey, EngineConfig> known = new HashMap<>(engines);
    Map<EngineKey, String> owner = new HashMap<>(owners);
    List<PlannedShare> out = new ArrayList<>();
    for (SmbPlanner.PlannedShare s : smb.shares()) {
      String at = "ossgw.shares." + s.name();
      try {
        MountOptions opts = ServePlanner.options(at, defaults.values(), s.options(), oss, endpoint);
        Credentials creds = emulatorEndpoint != null && oss.endpoint().isEmpty()
            ? ServePlanner.EMULATOR_CREDENTIALS : ServePlanner.credentials(oss, opts, s.source().bucket(), env);
        EngineConfig ec = EngineConfig.fromOptions(s.source().bucket(), s.source().prefix(), opts, creds,
            ProcessIds.uid(), ProcessIds.gid(), stateDir);
        FuseOptions fuse = FuseOptionsMapper.map(s.source().bucket(), opts, false, false, ec.statCacheExpire(),
            MountPlanner.DEFAULT_MOUNT_TIMEOUT);
        EngineKey key = EngineKey.of(ec);
        EngineConfig sharing = known.putIfAbsent(key, ec);
        if (sharing != null && !sharing.equals(ec)) {
          problems.add(at + ": shares bucket " + s.source() + " (one engine) with " + owner.get(key)
              + " but sets different engine options; make them equal");
          continue;
        }
        owner.putIfAbsent(key, at);
        out.add(new PlannedShare(s, ec, fuse));
      } catch (IllegalArgumentException ex) {
        problems.add(at + ": " + ex.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new Plan(smb, out);
  }

  /**
   * Mounts the shares and starts smbd.
   *
   * @param engineOf the engine of an engine configuration (created on first use, shared by every front end)
   * @throws RuntimeException with a user-facing message (nothing of SMB is left running then)
   */
  static SmbService start(Plan plan, Function<EngineConfig, Engine> engineOf, Mounter mounter) {
    List<SmbShare> shares = new ArrayList<>();
    for (PlannedShare p : plan.shares()) {
      SmbPlanner.PlannedShare s = p.share();
      // the engine's "smb" view: the same file system, counting SMB bytes for /q/metrics
      shares.add(new SmbShare(s.name(), s.source().toString(), engineOf.apply(p.engine()).fileSystem("smb"),
          p.fuse(), s.readOnly(), s.validUsers(), s.guest()));
    }
    return SmbService.start(plan.smb().settings(), shares, mounter);
  }
}
