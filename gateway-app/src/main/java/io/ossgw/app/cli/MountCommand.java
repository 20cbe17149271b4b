package io.ossgw.app.cli;

import io.ossgw.app.mount.Daemonizer;
import io.ossgw.app.mount.FuseMounterAdapter;
import io.ossgw.app.mount.LiveMount;
import io.ossgw.app.mount.MountPlan;
import io.ossgw.app.mount.MountPlanner;
import io.ossgw.app.mount.MountRecord;
import io.ossgw.app.mount.MountSource;
import io.ossgw.app.mount.ReadyFile;
import io.ossgw.app.mount.StateDirs;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.EngineException;
import io.ossgw.fuse.MountException;
import io.quarkus.runtime.Quarkus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jboss.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ossgw mount BUCKET[:/PREFIX] MOUNTPOINT [-o opt[,opt...]]... [-f] [-s] [-d]}, in ossfs's form.
 *
 * <p>Without {@code -f} the command re-launches itself detached ({@link Daemonizer}) and returns once the mount is
 * live, like ossfs. With {@code -f} it mounts in the foreground and runs until SIGTERM/SIGINT or an external
 * {@code fusermount -u}, then unmounts and exits 0. Any failure (bad option, no credentials, missing bucket, access
 * denied, stale mount) is one {@code ossgw: ...} line on stderr, a non-zero exit code, and nothing mounted.
 */
@Command(name = "mount", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    description = {"Mount an OSS bucket (or a prefix of it) with FUSE, like ossfs.",
        "Credentials: -o passwd_file=FILE (AK:SK or bucket:AK:SK lines, not readable by others), else the environment "
            + "(OSS_ACCESS_KEY_ID, OSS_ACCESS_KEY_SECRET), else ~/.passwd-ossfs, else /etc/passwd-ossfs."},
    footer = {"", "Example: ossgw mount mybucket:/logs /mnt/logs -o url=http://127.0.0.1:9000,passwd_file=/etc/passwd-ossfs"})
public class MountCommand implements Callable<Integer> {
  private static final Logger LOG = Logger.getLogger(MountCommand.class);

  @Parameters(index = "0", arity = "0..1", paramLabel = "BUCKET[:/PREFIX]",
      description = "the bucket, optionally with a sub-path to mount instead of the whole bucket")
  String source;

  @Parameters(index = "1", arity = "0..1", paramLabel = "MOUNTPOINT", description = "an existing directory")
  Path mountpoint;

  @Option(names = "-o", paramLabel = "OPT[,OPT...]",
      description = "ossfs-style options (repeatable), e.g. -o url=URL,allow_other,stat_cache_expire=60; "
          + "see --list-options. Unknown and not-implemented names are refused.")
  List<String> options = new ArrayList<>();

  @Option(names = "-f", description = "stay in the foreground until SIGTERM/SIGINT or an external unmount")
  boolean foreground;

  @Option(names = "-s", description = "single-threaded FUSE loop")
  boolean singleThreaded;

  @Option(names = "-d", description = "debug logging; twice also traces every FUSE request")
  boolean[] debug = new boolean[0];

  @Option(names = "--list-options", description = "print every -o option (kind, default, unit, meaning) and exit")
  boolean listOptions;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "120",
      description = "without -f: how long to wait for the mount to come up (default: ${DEFAULT-VALUE})")
  long timeoutSeconds;

  /** Set by the detaching parent: where the foreground child reports "mounted" or its error. */
  @Option(names = "--ready-file", hidden = true)
  Path readyFile;

  @Override
  public Integer call() throws Exception {
    if (listOptions) {
      OptionTable.print(System.out);
      return ExitCodes.OK;
    }
    ReadyFile ready = readyFile == null ? null : new ReadyFile(readyFile);
    if (source == null || mountpoint == null) {
      return fail(ready, ExitCodes.USAGE, "usage: ossgw mount BUCKET[:/PREFIX] MOUNTPOINT [-o opt,...] [-f] "
          + "(see ossgw mount --help)");
    }
    MountPlan plan;
    try {
      MountSource src = MountSource.parse(source);
      MountOptions opts = MountOptions.parse(options);
      LogLevels.apply(debug.length, opts);
      plan = MountPlanner.plan(src, mountpoint, opts, System.getenv(), singleThreaded, debug.length > 1,
          StateDirs.defaultStateDir());
    } catch (IllegalArgumentException e) {
      return fail(ready, ExitCodes.USAGE, e.getMessage());
    } catch (MountException e) {
      return fail(ready, ExitCodes.FAILED, e.getMessage()); // already a mount point, live or dead
    }
    return foreground ? runForeground(plan, ready) : detach(plan);
  }

  private Integer runForeground(MountPlan plan, ReadyFile ready) throws InterruptedException {
    // Before mounting: a SIGTERM that arrives once the kernel mount is visible (but before start() returns) must
    // also end in a clean unmount and exit 0; Quarkus.waitForExit() then returns at once.
    Signals.exitCleanlyOnTermination();
    LiveMount live;
    try {
      live = LiveMount.start(plan, new FuseMounterAdapter());
    } catch (EngineException | MountException | IllegalArgumentException e) {
      return fail(ready, ExitCodes.FAILED, e.getMessage());
    } catch (RuntimeException e) {
      LOG.debug("mount failed", e);
      return fail(ready, ExitCodes.FAILED, "mount failed: " + e);
    }
    Path record = null;
    try (live) {
      // Before reporting "mounted": an `ossgw umount` right after `ossgw mount` returns must find the record.
      if (live.handle().identity() != null) {
        record = MountRecord.ofCurrentProcess(live.handle().identity(),
            ready == null ? null : logFile(plan).toString()).write(MountRecord.runtimeDir());
      }
      if (ready != null) {
        ready.mounted();
      }
      // An external `fusermount -u` ends the mount: stop Quarkus the same way a signal does.
      Thread.ofPlatform().daemon().name("ossgw-unmount-watch").start(() -> {
        try {
          live.handle().awaitUnmounted();
          LOG.infof("%s was unmounted", plan.mountpoint());
          Quarkus.asyncExit(ExitCodes.OK);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Quarkus.waitForExit();
    } finally {
      MountRecord.delete(record); // after closing the engine: until then this process may still upload
    }
    return ExitCodes.OK;
  }

  private Integer detach(MountPlan plan) throws Exception {
    List<String> args = new ArrayList<>(List.of("mount", source, plan.mountpoint().toString()));
    for (String o : options) {
      args.add("-o");
      args.add(o);
    }
    args.add("-f");
    if (singleThreaded) {
      args.add("-s");
    }
    for (int i = 0; i < debug.length; i++) {
      args.add("-d");
    }
    Path log = logFile(plan);
    Daemonizer.Result r = Daemonizer.launch(args, log, Duration.ofSeconds(Math.max(1, timeoutSeconds)));
    if (r.exitCode() != 0) {
      Cli.error(r.message());
    }
    return r.exitCode();
  }

  /** {@code logfile=} if given, else {@code <state dir>/log/mount-<mount point>.log}. */
  static Path logFile(MountPlan plan) {
    var explicit = plan.options().get("logfile");
    if (explicit.isPresent()) {
      return Path.of(explicit.get()).toAbsolutePath();
    }
    Path state = plan.engine().stateDir() != null ? plan.engine().stateDir() : StateDirs.defaultStateDir();
    String name = plan.mountpoint().toString().replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+", "");
    return state.resolve("log").resolve("mount-" + (name.isEmpty() ? "root" : name) + ".log");
  }

  private static int fail(ReadyFile ready, int code, String message) {
    Cli.error(message);
    if (ready != null) {
      ready.failed(message);
    }
    return code;
  }
}
