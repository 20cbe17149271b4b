package io.ossgw.app.mount;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.CredentialsResolver;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.fuse.MountException;
import io.ossgw.fuse.StaleMounts;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves a mount request into a {@link MountPlan}: credentials (ossfs order: {@code passwd_file=}, environment,
 * {@code ~/.passwd-ossfs}, {@code /etc/passwd-ossfs}), the {@link EngineConfig} and the {@link
 * io.ossgw.fuse.FuseOptions}. Every failure is an {@link IllegalArgumentException} with a one-line message for the user
 * that never contains a secret, except a mount point that is already mounted ({@link MountException}, see {@link
 * #checkMountpoint}).
 */
public final class MountPlanner {
  /** How long FUSE mounting may take by default. */
  public static final Duration DEFAULT_MOUNT_TIMEOUT = Duration.ofSeconds(10);

  private MountPlanner() {}

  /**
   * Plans a mount from the CLI.
   *
   * @param source the bucket and prefix
   * @param mountpoint the mount point (must be an existing directory)
   * @param options the parsed {@code -o} options
   * @param env the process environment (credentials)
   * @param singleThreaded ossfs {@code -s}
   * @param fuseDebug libfuse request tracing
   * @param stateDir the default state directory (the {@code state_dir=} option overrides it)
   */
  public static MountPlan plan(MountSource source, Path mountpoint, MountOptions options, Map<String, String> env,
      boolean singleThreaded, boolean fuseDebug, Path stateDir) {
    checkMountpoint(mountpoint); // the most basic mistake is reported first
    Credentials creds = resolveCredentials(source.bucket(), options, env);
    return plan(source, mountpoint, options, creds, singleThreaded, fuseDebug, stateDir);
  }

  /** Plans a mount with credentials already resolved (serve, demo). */
  public static MountPlan plan(MountSource source, Path mountpoint, MountOptions options, Credentials creds,
      boolean singleThreaded, boolean fuseDebug, Path stateDir) {
    Path mp = checkMountpoint(mountpoint);
    EngineConfig engine = EngineConfig.fromOptions(
        source.bucket(), source.prefix(), options, creds, ProcessIds.uid(), ProcessIds.gid(), stateDir);
    var fuse = FuseOptionsMapper.map(source.bucket(), options, singleThreaded, fuseDebug, engine.statCacheExpire(),
        DEFAULT_MOUNT_TIMEOUT);
    return new MountPlan(source, mp, options, engine, fuse);
  }

  /**
   * Credentials for a CLI mount.
   *
   * @throws IllegalArgumentException when no source has any, or the passwd file is unsafe or malformed
   */
  public static Credentials resolveCredentials(String bucket, MountOptions options, Map<String, String> env) {
    Path passwd = options.get("passwd_file").map(Path::of).orElse(null);
    if (passwd != null && !Files.exists(passwd)) {
      throw new IllegalArgumentException("passwd_file " + passwd + " does not exist");
    }
    Optional<Credentials> creds = CredentialsResolver.resolve(bucket, passwd, env, StateDirs.home());
    return creds.orElseThrow(() -> new IllegalArgumentException(
        "no OSS credentials: use -o passwd_file=FILE (AK:SK or bucket:AK:SK lines, mode 600), "
            + "or set OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET, or create ~/.passwd-ossfs"));
  }

  /**
   * The absolute, normalised mount point, checked before anything else is started.
   *
   * <p>A mount already there comes first, with the command that clears it: a dead FUSE mount fails {@code stat} with
   * ENOTCONN and would otherwise be reported as "not a directory" (issue 9 item 11), and a live one would only be
   * found after the engine had started and found the metadata store locked by that mount (issue 13 item 10).
   *
   * @throws IllegalArgumentException if it is missing or not a directory
   * @throws MountException if it is already a mount point (live, dead or hung; see {@link StaleMounts})
   */
  public static Path checkMountpoint(Path mountpoint) {
    if (mountpoint == null) {
      throw new IllegalArgumentException("missing MOUNTPOINT");
    }
    Path mp = mountpoint.toAbsolutePath().normalize();
    StaleMounts.Status there = StaleMounts.check(mp);
    if (there.state() != StaleMounts.State.NOT_MOUNTED) {
      throw new MountException(there.message());
    }
    if (!Files.exists(mp, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException("mount point " + mp + " does not exist (create it with: mkdir -p " + mp + ")");
    }
    if (!Files.isDirectory(mp)) {
      throw new IllegalArgumentException("mount point " + mp + " is not a directory");
    }
    return mp;
  }
}
