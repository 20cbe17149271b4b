package io.ossgw.app.cli;

import io.ossgw.app.cluster.ClusterService;
import io.ossgw.app.cluster.ClusterSettings;
import io.ossgw.app.cluster.InodeImport;
import io.ossgw.app.cluster.RedisStore;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ossgw cluster import-inodes --state-dir DIR [--config FILE]}: copies a single gateway's inode tables (NFS
 * handles, {@code st_ino}) into the cluster store named by {@code ossgw.cluster.store} (the same configuration as
 * {@code ossgw serve}: {@code --config FILE}, {@code -D}, {@code OSSGW_CLUSTER_STORE}), so its clients keep their
 * handles when the gateways of the cluster take over ({@link InodeImport}). Exit 0 when copied, 2 for bad usage
 * (no store configured, no table in DIR), 1 when the store refuses or fails (nothing half-done: re-run it).
 */
@Command(name = "cluster", description = "Cluster store tools (ossgw.cluster.*).",
    subcommands = {ClusterCommand.ImportInodes.class})
public class ClusterCommand implements Runnable {
  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code import-inodes}: the state directory's tables into the store. */
  @Command(name = "import-inodes", mixinStandardHelpOptions = true,
      description = {"Copy a state directory's inode tables (NFS handles nfs/nfs-handles.mv, st_ino inodes-*.mv: "
          + "numbers, generations, the handle secret) into the cluster store of ossgw.cluster.store, so handles "
          + "given out by this gateway stay valid on every gateway of the cluster.",
          "Run it with the gateway stopped and before the cluster's gateways start. Refuses, writing nothing, if the "
              + "store already has another table of the same name; running it again before the cluster starts is "
              + "harmless."})
  static class ImportInodes implements Callable<Integer> {
    @Option(names = "--state-dir", required = true, paramLabel = "DIR",
        description = "the gateway's state directory (ossgw.state-dir / state_dir)")
    Path stateDir;

    @Option(names = "--config", paramLabel = "FILE",
        description = "a properties file with ossgw.cluster.* (the one ossgw serve uses)")
    Path config;

    @Inject ClusterService cluster;
    @Inject io.vertx.mutiny.core.Vertx vertx;

    @Override
    public Integer call() {
      ClusterSettings settings;
      try {
        cluster.configure();
        settings = cluster.settings().orElse(null);
      } catch (IllegalArgumentException e) {
        Cli.error(e.getMessage());
        return ExitCodes.USAGE;
      }
      if (settings == null) {
        Cli.error("no cluster store: set ossgw.cluster.store (in --config FILE, "
            + "-Dossgw.cluster.store=redis://HOST:6379 or OSSGW_CLUSTER_STORE)");
        return ExitCodes.USAGE;
      }
      if (!Files.isDirectory(stateDir)) {
        Cli.error("state directory " + stateDir + " does not exist");
        return ExitCodes.USAGE;
      }
      try (RedisStore store = new RedisStore(vertx, settings, RedisStore.Recorder.NONE)) {
        for (InodeImport.Result r : new InodeImport(store).importAll(stateDir)) {
          System.out.printf("imported %s: %d numbers, %d removed (tombstones) into %s (cluster '%s')%n", r.table(),
              r.entries(), r.tombstones(), settings.displayUrl(), settings.name());
        }
        return ExitCodes.OK;
      } catch (java.io.IOException | RuntimeException e) {
        Cli.error(e.getMessage() == null ? e.toString() : e.getMessage());
        return ExitCodes.FAILED;
      }
    }
  }
}
