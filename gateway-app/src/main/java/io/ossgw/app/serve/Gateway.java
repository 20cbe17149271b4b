package io.ossgw.app.serve;

import io.ossgw.app.cluster.ClusterService;
import io.ossgw.app.smb.SmbPlanner;
import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.EmulatorConfig;
import io.ossgw.app.config.ExportsConfig;
import io.ossgw.app.config.GatewayConfig;
import io.ossgw.app.config.MountsConfig;
import io.ossgw.app.config.NfsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.app.config.SharesConfig;
import io.ossgw.app.config.SmbConfig;
import io.ossgw.app.metrics.GatewayMetrics;
import io.ossgw.app.mount.MountHandle;
import io.ossgw.app.mount.Mounter;
import io.ossgw.app.mount.StateDirs;
import io.ossgw.app.smb.SmbService;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.lock.LockTable;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * What {@code serve} runs: the embedded emulator when no endpoint is configured, one {@link Engine} per distinct
 * endpoint/bucket/prefix (shared by every front end: one cache), one FUSE mount per {@code ossgw.mounts.<name>}, and
 * an NFS server when {@code ossgw.exports.*} has entries, and Samba's smbd over FUSE mounts of the shares when
 * {@code ossgw.shares.*} has entries ({@link SmbFrontEnd}). {@link #start} validates the whole configuration first
 * ({@link ServePlanner}, {@link ExportPlanner}, {@link SmbFrontEnd}) and undoes everything it started if any step
 * fails; {@link #stop} (also on CDI shutdown) stops smbd and unmounts the shares, stops NFS (uploading uncommitted
 * writes), unmounts everything, then closes the engines, then stops the emulator.
 */
@ApplicationScoped
public class Gateway {
  private static final Logger LOG = Logger.getLogger(Gateway.class);

  /** Lifecycle states, for health checks. */
  public enum State { NEW, RUNNING, STOPPED }

  @Inject OssConfig oss;
  @Inject MountsConfig mounts;
  @Inject DefaultOptionsConfig defaults;
  @Inject GatewayConfig gateway;
  @Inject EmulatorConfig emulatorConfig;
  @Inject NfsConfig nfsConfig;
  @Inject ExportsConfig exportsConfig;
  @Inject SmbConfig smbConfig;
  @Inject SharesConfig sharesConfig;
  @Inject Mounter mounter;
  @Inject GatewayMetrics metrics;
  @Inject ClusterService cluster;

  private volatile State state = State.NEW;
  private EmbeddedEmulator emulator;
  private final Map<EngineKey, Engine> engines = new LinkedHashMap<>();
  private final List<ServedMount> served = new ArrayList<>();
  private NfsFrontEnd nfs;
  private SmbService smb;
  // what the front ends serve, kept to start them again when a standby takes the lease (ossgw.cluster.*)
  private Path stateDir;
  private List<ExportPlanner.PlannedExport> plannedExports = List.of();
  private SmbFrontEnd.Plan smbPlan;

  /**
   * Validates the configuration, starts the emulator (zero-config), the engines and the mounts.
   *
   * @throws ConfigException for invalid configuration (nothing started)
   * @throws RuntimeException with a user-facing message when an engine or mount fails (everything undone)
   */
  public synchronized void start() {
    if (state == State.RUNNING) {
      return;
    }
    Path stateDir = gateway.stateDir().orElseGet(StateDirs::defaultStateDir);
    List<String> problems = new ArrayList<>();
    Duration interval = gateway.health().ossCheckInterval();
    if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
      problems.add("ossgw.health.oss-check-interval must be at least 1s, got " + interval);
    }
    if (emulatorConfig.port() < 0 || emulatorConfig.port() > 65535) {
      problems.add("ossgw.emulator.port must be 0..65535, got " + emulatorConfig.port());
    }
    if (nfsConfig.port() < 0 || nfsConfig.port() > 65535) {
      problems.add("ossgw.nfs.port must be 0..65535, got " + nfsConfig.port());
    }
    if (nfsConfig.openIdleTimeout().compareTo(Duration.ofSeconds(1)) < 0) {
      problems.add("ossgw.nfs.open-idle-timeout must be at least 1s, got " + nfsConfig.openIdleTimeout());
    }
    problems.addAll(NfsFrontEnd.problems(nfsConfig));
    try {
      cluster.configure();
    } catch (IllegalArgumentException e) {
      problems.addAll(List.of(e.getMessage().split("\n")));
    }
    if (cluster.settings().isPresent() && !cluster.standby() && !sharesConfig.all().isEmpty()) {
      problems.add("ossgw.cluster.mode=active serves NFS only: SMB byte-range locks and share modes live in each "
          + "gateway's smbd and cannot be made cluster-wide; remove ossgw.shares.* or use ossgw.cluster.mode=standby");
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    boolean embedded = oss.endpoint().isEmpty();
    // Validate everything before starting anything (a placeholder endpoint stands in for the emulator's).
    String placeholder = embedded ? "http://127.0.0.1:1" : null;
    List<ServePlanner.Planned> checkedMounts = ServePlanner.plan(oss, mounts, defaults, stateDir, placeholder,
        System.getenv());
    planSmb(stateDir, placeholder, checkedMounts, ExportPlanner.plan(oss, exportsConfig, defaults, stateDir,
        placeholder, System.getenv(), checkedMounts));
    try {
      cluster.open(); // before any engine: engines are built with the cluster's write gate and publisher
      String emulatorEndpoint = null;
      if (embedded) {
        emulator = startEmulator(stateDir);
        emulatorEndpoint = emulator.endpoint();
        // the embedded emulator takes no credentials: whoever reaches its port reads and writes its buckets
        LOG.infof("no ossgw.oss.endpoint configured: started the embedded OSS emulator at %s (bucket '%s'; "
            + "authentication OFF: any client that reaches this address can read and write it)",
            emulatorEndpoint, emulatorConfig.bucket());
      }
      List<ServePlanner.Planned> planned = ServePlanner.plan(oss, mounts, defaults, stateDir, emulatorEndpoint,
          System.getenv());
      List<ExportPlanner.PlannedExport> exports = ExportPlanner.plan(oss, exportsConfig, defaults, stateDir,
          emulatorEndpoint, System.getenv(), planned);
      for (ServePlanner.Planned p : planned) {
        Engine engine = engineFor(p.plan().engine());
        MountHandle h = mounter.mount(engine.fileSystem(), p.plan().mountpoint(), p.plan().fuse());
        served.add(new ServedMount(p.name(), p.plan(), engine, h));
        metrics.mountAdded(p.name(), h);
        LOG.infof("mount '%s': %s at %s", p.name(), p.plan().source(), p.plan().mountpoint());
      }
      this.stateDir = stateDir;
      this.plannedExports = exports;
      this.smbPlan = planSmb(stateDir, emulatorEndpoint, planned, exports);
      if (cluster.standby()) { // a standby keeps its engines started, to serve at once when it takes the lease
        exports.forEach(x -> engineFor(x.engine()));
        if (smbPlan != null) {
          smbPlan.shares().forEach(sh -> engineFor(sh.engine()));
        }
      }
      cluster.start(new ClusterService.Roles() {
        @Override
        public void startServing() {
          startFrontEnds();
        }

        @Override
        public void stopServing() {
          stopFrontEnds();
        }
      });
      state = State.RUNNING;
    } catch (RuntimeException e) {
      stopAll();
      throw e;
    }
  }

  /** The SMB plan (null without shares); shares reuse the engines of mounts and exports of the same bucket/prefix. */
  private SmbFrontEnd.Plan planSmb(Path stateDir, String emulatorEndpoint, List<ServePlanner.Planned> planned,
      List<ExportPlanner.PlannedExport> exports) {
    if (sharesConfig.all().isEmpty()) {
      return null;
    }
    Map<EngineKey, EngineConfig> known = new LinkedHashMap<>();
    Map<EngineKey, String> owners = new LinkedHashMap<>();
    for (ServePlanner.Planned p : planned) {
      EngineConfig ec = p.plan().engine();
      known.putIfAbsent(EngineKey.of(ec), ec);
      owners.putIfAbsent(EngineKey.of(ec), "ossgw.mounts." + p.name());
    }
    for (ExportPlanner.PlannedExport x : exports) {
      known.putIfAbsent(EngineKey.of(x.engine()), x.engine());
      owners.putIfAbsent(EngineKey.of(x.engine()), "ossgw.exports." + x.name());
    }
    SmbFrontEnd.Plan plan = SmbFrontEnd.plan(oss, smbConfig, sharesConfig, defaults, stateDir, emulatorEndpoint,
        System.getenv(), known, owners);
    // in a cluster another gateway may serve the files next: what a client flushed must be in OSS
    boolean strict = smbConfig.strictSync().orElse(cluster.settings().isPresent());
    return new SmbFrontEnd.Plan(new SmbPlanner.Plan(plan.smb().settings().withStrictSync(strict), plan.smb().shares()),
        plan.shares());
  }

  /**
   * Starts the NFS server and SMB (smbd and the shares' mounts) from the plans made at start: at start for a single
   * gateway, and each time a standby takes the cluster lease. Everything it started is stopped again if a step fails.
   */
  private synchronized void startFrontEnds() {
    if (state == State.STOPPED) {
      return;
    }
    try {
      if (nfs == null && !plannedExports.isEmpty()) {
        // active mode: every gateway serves the same files, and a lock here would not exclude another's client
        nfs = NfsFrontEnd.start(nfsConfig, plannedExports, stateDir, x -> engineFor(x.engine()),
            cluster.active() ? LockTable.none() : null, cluster.inodeTable("nfs").orElse(null),
            cluster.clientRecords().orElse(null), cluster.nlmHosts().orElse(null));
      }
      if (smb == null && smbPlan != null) {
        smb = SmbFrontEnd.start(smbPlan, this::engineFor, mounter);
        metrics.smbStarted(smb);
      }
    } catch (RuntimeException e) {
      if (cluster.standby()) {
        stopFrontEnds();
      }
      throw e;
    }
  }

  /**
   * Stops SMB, then NFS (smbd first: no client request reaches a mount that is going away; NFS uploads what its
   * clients wrote and did not COMMIT, through the engines). Idempotent; the engines stay open.
   */
  private synchronized void stopFrontEnds() {
    if (smb != null) {
      try {
        smb.close();
      } catch (RuntimeException e) {
        LOG.warnf("stopping SMB failed: %s", e.getMessage());
      }
      metrics.smbStopped();
      smb = null;
    }
    if (nfs != null) {
      try {
        nfs.close();
        LOG.info("NFS server stopped");
      } catch (RuntimeException e) {
        LOG.warnf("stopping the NFS server failed: %s", e.getMessage());
      }
      nfs = null;
    }
  }

  /** The engine of an endpoint/bucket/prefix, started on first use and shared by every front end. */
  private Engine engineFor(EngineConfig ec) {
    EngineKey key = EngineKey.of(ec);
    Engine engine = engines.get(key);
    if (engine == null) {
      // OSS requests, retries, caches -> /q/metrics; in a cluster, writes pass the lease and changes are published
      engine = Engine.start(ec, metrics.observer(ec), cluster.writeGate(ec.bucket()), cluster.decorator(ec),
          cluster.inodeTables());
      engines.put(key, engine);
      metrics.engineStarted(engine);
      cluster.engineStarted(engine);
    }
    return engine;
  }

  private EmbeddedEmulator startEmulator(Path stateDir) {
    Set<String> buckets = new LinkedHashSet<>();
    buckets.add(emulatorConfig.bucket());
    mounts.all().values().forEach(m -> buckets.add(m.bucket()));
    exportsConfig.all().values().forEach(x -> buckets.add(x.bucket()));
    sharesConfig.all().values().forEach(x -> buckets.add(x.bucket()));
    Path data = emulatorConfig.storage() == EmulatorConfig.Storage.MEMORY ? null
        : emulatorConfig.dataDir().orElse(stateDir.resolve("emulator"));
    return EmbeddedEmulator.start(emulatorConfig.bind(), emulatorConfig.port(), data, buckets, null, null);
  }

  /** Unmounts every mount, closes the engines and stops the emulator; idempotent. */
  @PreDestroy
  public synchronized void stop() {
    if (state == State.RUNNING) {
      stopAll();
      state = State.STOPPED;
    }
  }

  private void stopAll() {
    stopFrontEnds(); // first: NFS uploads what its clients wrote and did not COMMIT, through the engines

    for (ServedMount m : served.reversed()) {
      try {
        m.handle().close();
        LOG.infof("unmounted '%s' (%s)", m.name(), m.plan().mountpoint());
      } catch (RuntimeException e) {
        LOG.warnf("unmounting '%s' failed: %s", m.name(), e.getMessage());
      }
    }
    served.clear();
    metrics.mountsRemoved();
    for (Engine e : engines.values()) {
      try {
        e.close();
      } catch (RuntimeException ex) {
        LOG.warnf("closing the engine of %s failed: %s", e.config().bucket(), ex.getMessage());
      }
    }
    engines.clear();
    cluster.close(); // after the last write: gives the lease up, so a standby takes over at once
    if (emulator != null) {
      emulator.close();
      emulator = null;
    }
  }

  public State state() {
    return state;
  }

  /** The mounts while running (a copy). */
  public synchronized List<ServedMount> mounts() {
    return List.copyOf(served);
  }

  /** The NFS server's call counters while it runs (metrics). */
  public synchronized Optional<io.ossgw.nfs.v3.Nfs3Stats> nfsStats() {
    return Optional.ofNullable(nfs).map(n -> n.server().stats());
  }

  /** The NFS server while it runs (metrics of NFSv4.1: operations, clients, sessions, state; readiness). */
  public synchronized Optional<io.ossgw.nfs.NfsServer> nfsServer() {
    return Optional.ofNullable(nfs).map(NfsFrontEnd::server);
  }

  /** The NFS port while the NFS server runs. */
  public synchronized Optional<Integer> nfsPort() {
    return Optional.ofNullable(nfs).map(NfsFrontEnd::port);
  }

  /** The NFS exports while the NFS server runs (a copy). */
  public synchronized List<ExportPlanner.PlannedExport> exports() {
    return nfs == null ? List.of() : List.copyOf(nfs.exports());
  }

  /** SMB (smbd and the shares' mounts) while it runs. */
  public synchronized Optional<SmbService> smb() {
    return Optional.ofNullable(smb);
  }

  /** The engines while running (a copy). */
  public synchronized List<Engine> engines() {
    return List.copyOf(engines.values());
  }

  /** The embedded emulator's endpoint, if one runs. */
  public synchronized Optional<String> emulatorEndpoint() {
    return Optional.ofNullable(emulator).map(EmbeddedEmulator::endpoint);
  }

  /** How often readiness may re-check OSS. */
  public Duration ossCheckInterval() {
    return gateway.health().ossCheckInterval();
  }
}
