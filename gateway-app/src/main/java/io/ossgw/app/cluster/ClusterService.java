package io.ossgw.app.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ossgw.app.config.ClusterConfig;
import io.ossgw.core.cluster.EngineInvalidator;
import io.ossgw.core.cluster.Fence;
import io.ossgw.core.cluster.FencedObjectStore;
import io.ossgw.core.cluster.InvalidationChannel;
import io.ossgw.core.cluster.Lease;
import io.ossgw.core.cluster.LeaseRunner;
import io.ossgw.core.cluster.LeaseStore;
import io.ossgw.core.cluster.PublishingFileSystem;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.vfs.VirtualFileSystem;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * This gateway's place in a cluster ({@code ossgw.cluster.*}, issue 23). Without a store it is a single gateway:
 * {@link Fence#ALWAYS}, no invalidations, front ends start at once. With one:
 *
 * <ul>
 *   <li><b>standby mode</b>: a {@link Lease} in the store decides which gateway serves. Engines start everywhere; the
 *       NFS and SMB front ends start on the holder only ({@link Roles#startServing}) and stop when it loses the lease
 *       ({@link Roles#stopServing}); every OSS write passes {@link FencedObjectStore}, so a fenced node writes nothing
 *       even before its listeners are closed. Readiness follows the lease.
 *   <li><b>active mode</b>: every gateway serves; each change publishes an invalidation and each gateway applies the
 *       others' ({@link PublishingFileSystem}, {@link EngineInvalidator}).
 * </ul>
 *
 * Every change of holder is logged at INFO (WARN for a loss) with the node id and the fencing token. Metrics:
 * {@code ossgw_cluster_lease_holder}, {@code ossgw_cluster_lease_acquisitions_total},
 * {@code ossgw_cluster_lease_losses_total}, {@code ossgw_cluster_store_requests_seconds{op,outcome}},
 * {@code ossgw_cluster_invalidations_sent_total}, {@code ossgw_cluster_invalidations_received_total},
 * {@code ossgw_cluster_invalidations_failed_total}, {@code ossgw_cluster_resyncs_total}. With a store, the inode
 * tables (NFS handles, {@code st_ino}) live in it ({@link #inodeTable}).
 */
@ApplicationScoped
public class ClusterService {
  private static final Logger LOG = Logger.getLogger(ClusterService.class);

  /** What the gateway does when this node starts or stops serving (called on the cluster thread, in order). */
  public interface Roles {
    /** Start the NFS and SMB front ends. @throws RuntimeException when they cannot start */
    void startServing();

    /** Stop the NFS and SMB front ends now (no new request is served). */
    void stopServing();
  }

  @Inject ClusterConfig config;
  @Inject MeterRegistry registry;
  @Inject io.vertx.mutiny.core.Vertx vertx;

  private ClusterSettings settings;
  private RedisStore store;
  private Lease lease;
  private LeaseRunner runner;
  private RedisInvalidationChannel channel;
  private AutoCloseable subscription;
  private final EngineInvalidator invalidator = new EngineInvalidator();
  private ExecutorService actions;
  private ScheduledExecutorService watcher;
  private volatile boolean serving;
  private volatile String observedHolder = "";
  private volatile long standbySince = System.nanoTime();

  /**
   * Checks {@code ossgw.cluster.*}.
   *
   * @throws IllegalArgumentException listing the problems, one per line
   */
  public synchronized void configure() {
    if (settings != null) {
      return;
    }
    settings = ClusterSettings.from(config, hostName(), ProcessHandle.current().pid()).orElse(null);
  }

  private static String hostName() {
    String h = System.getenv("HOSTNAME");
    if (h != null && !h.isBlank()) {
      return h.strip();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      return "localhost";
    }
  }

  /** The checked settings, when a store is configured. */
  public synchronized Optional<ClusterSettings> settings() {
    return Optional.ofNullable(settings);
  }

  /** True with a store and {@code mode=standby}: front ends wait for the lease. */
  public synchronized boolean standby() {
    return settings != null && settings.mode() == ClusterConfig.Mode.STANDBY;
  }

  /**
   * True with a store and {@code mode=active}: every gateway serves, so the NFS front end grants no byte-range lock
   * (one gateway's lock would not exclude another's clients).
   */
  public synchronized boolean active() {
    return settings != null && settings.mode() == ClusterConfig.Mode.ACTIVE;
  }

  /** Connects the store client and, in active mode, subscribes to invalidations (before engines cache anything). */
  public synchronized void open() {
    if (settings == null || store != null) {
      return;
    }
    store = new RedisStore(vertx, settings, this::record);
    LOG.infof("cluster: node %s, %s mode, store %s (cluster '%s', lease TTL %d ms, renew every %d ms)",
        settings.nodeId(), settings.mode().name().toLowerCase(), settings.displayUrl(), settings.name(),
        settings.leaseTtl().toMillis(), settings.renewInterval().toMillis());
    RedisStore checked = store;
    Thread.ofVirtual().name("ossgw-cluster-check").start(() -> checkStoreSettings(checked));
    if (settings.mode() == ClusterConfig.Mode.ACTIVE) {
      channel = new RedisInvalidationChannel(store, settings.nodeId());
      subscription = channel.subscribe(invalidator);
      registerChannelMeters();
    } else {
      lease = new Lease(new RedisLeaseStore(store), settings.nodeId(), settings.leaseTtl(),
          settings.renewInterval(), Ticker.systemTicker(), new Listener());
      registerLeaseMeters();
    }
  }

  /** Warns about store settings that put the shared state at risk; never delays or fails the start. */
  private static void checkStoreSettings(RedisStore s) {
    try {
      StoreServerCheck.check(s).forEach(w -> LOG.warn("cluster: " + w));
    } catch (io.ossgw.core.cluster.ClusterStoreException e) {
      LOG.debugf("cluster: could not read the store's settings (managed stores often refuse CONFIG): %s",
          e.getMessage());
    }
  }

  /** The fence every engine's writes pass: the lease in standby mode, else always open. */
  public synchronized Fence fence() {
    return lease != null ? lease : Fence.ALWAYS;
  }

  /**
   * Wraps an engine's OSS client in the write gate (standby mode), or leaves it (otherwise). In standby mode the
   * gate writes the engine's open multipart uploads down in the store ({@link RedisUploadRecordStore}), and the node
   * that takes the lease over aborts those its predecessor left ({@link FencedObjectStore#abortOrphans}).
   *
   * @param bucket the engine's bucket
   */
  public UnaryOperator<ObjectStore> writeGate(String bucket) {
    Fence f = fence();
    if (f == Fence.ALWAYS) {
      return UnaryOperator.identity();
    }
    RedisStore s = store;
    return o -> {
      FencedObjectStore gate = new FencedObjectStore(o, f, new RedisUploadRecordStore(s, bucket));
      gates.add(gate);
      return gate;
    };
  }

  /** Every write gate made (standby mode): each aborts the former holder's uploads at a takeover. */
  private final java.util.List<FencedObjectStore> gates = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Aborts the uploads a former holder left open (on the cluster thread, after the front ends started). */
  private void abortOrphans(long token) {
    int aborted = 0;
    for (FencedObjectStore g : gates) {
      if (!lease.validFor(token)) {
        return;
      }
      try {
        aborted += g.abortOrphans(token);
      } catch (RuntimeException e) {
        LOG.warnf("cluster: the former holder's open uploads could not be listed in the store (%s); they stay until "
            + "the next takeover or a lifecycle rule", e.getMessage());
      }
    }
    if (aborted > 0) {
      LOG.infof("cluster: node %s aborted %d multipart upload(s) the former holder left open (what their files "
          + "held after their last completed upload is lost, as in a crash)", settings.nodeId(), aborted);
    }
  }

  /** Wraps an engine's file system in the invalidation publisher (active mode), or leaves it. */
  public synchronized UnaryOperator<VirtualFileSystem> decorator(EngineConfig ec) {
    if (channel == null) {
      return UnaryOperator.identity();
    }
    InvalidationChannel ch = channel;
    String node = settings.nodeId();
    return fs -> new PublishingFileSystem(fs, ch, node, ec.bucket(), ec.prefix());
  }

  /**
   * The inode table {@code name} in the store (issue 23 item 1: {@code nfs} for the NFS handles, {@code
   * engine-<mount id>} for an engine's numbers), or empty without a store (the state directory's files).
   */
  public synchronized Optional<io.ossgw.core.cluster.InodeNumberStore> inodeTable(String name) {
    return store == null ? Optional.empty() : Optional.of(new RedisInodeNumberStore(store, name));
  }

  /**
   * The NFSv4.1 client records in the store, changed only while this node holds the lease (standby mode: the node that
   * takes the lease over loads them and runs the grace period for their clients), or empty without a store or in
   * active mode (each gateway's clients are its own there: the state directory's file).
   */
  public synchronized Optional<io.ossgw.core.cluster.ClientRecordStore> clientRecords() {
    return store == null || lease == null ? Optional.empty()
        : Optional.of(io.ossgw.core.cluster.ClientRecordStore.fenced(new RedisClientRecordStore(store), lease));
  }

  /**
   * The NLM monitor list (client hosts holding NLM locks, and the NSM state number) in the store, changed only while
   * this node holds the lease: the node that takes the lease over sends those hosts SM_NOTIFY. Empty without a store
   * or in active mode (no NLM locks there).
   */
  public synchronized Optional<io.ossgw.core.cluster.ClientRecordStore> nlmHosts() {
    return store == null || lease == null ? Optional.empty()
        : Optional.of(io.ossgw.core.cluster.ClientRecordStore.fenced(new RedisClientRecordStore(store, "nlm-hosts"),
            lease));
  }

  /** {@link #inodeTable} as the function {@code Engine.start} takes, or null without a store. */
  public synchronized java.util.function.Function<String, io.ossgw.core.cluster.InodeNumberStore> inodeTables() {
    RedisStore s = store;
    return s == null ? null : name -> new RedisInodeNumberStore(s, name);
  }

  /** An engine started: it receives the other nodes' invalidations from now on. */
  public void engineStarted(Engine engine) {
    invalidator.add(engine);
  }

  /**
   * Starts serving: at once without a store or in active mode; in standby mode starts the lease, and {@code roles}
   * run on the cluster thread when it is taken and lost.
   */
  public synchronized void start(Roles roles) {
    if (lease == null) {
      roles.startServing();
      serving = true;
      return;
    }
    this.roles = roles;
    actions = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().name("ossgw-cluster").daemon().unstarted(r));
    watcher = Executors.newSingleThreadScheduledExecutor(
        r -> Thread.ofPlatform().name("ossgw-cluster-watch").daemon().unstarted(r));
    long every = Math.max(1000, settings.renewInterval().toMillis());
    watcher.scheduleWithFixedDelay(this::watchHolder, 0, every, TimeUnit.MILLISECONDS);
    LOG.infof("cluster: node %s is a standby; it serves once it holds the lease", settings.nodeId());
    runner = new LeaseRunner(lease);
  }

  private Roles roles;

  /**
   * Starts the front ends while this node holds the lease under {@code token} (on the cluster thread). A start that
   * fails on the store (the NFSv4.1 client records cannot be loaded: serving without them would deny the former
   * holder's clients their reclaims) is tried again every renew interval while the lease is held; any other failure
   * leaves readiness DOWN.
   */
  private void serveUnder(long token) {
    if (!lease.validFor(token)) {
      return; // lost again meanwhile: the loss's task follows
    }
    try {
      roles.startServing();
      serving = true;
      LOG.infof("cluster: node %s serves (token %d)", settings.nodeId(), token);
      abortOrphans(token);
    } catch (RuntimeException e) {
      if (causedByStore(e)) {
        LOG.warnf("cluster: node %s holds the lease but cannot start serving, the store failed (%s); trying again in "
            + "%d ms", settings.nodeId(), e.getMessage(), settings.renewInterval().toMillis());
        watcher.schedule(() -> actions.execute(() -> serveUnder(token)), settings.renewInterval().toMillis(),
            TimeUnit.MILLISECONDS);
      } else {
        LOG.errorf("cluster: node %s holds the lease but its front ends did not start (%s); readiness stays DOWN",
            settings.nodeId(), e.getMessage());
      }
    }
  }

  private static boolean causedByStore(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof io.ossgw.core.cluster.ClusterStoreException) {
        return true;
      }
    }
    return false;
  }

  /** Told by the lease (on its thread): hands the work to the cluster thread. */
  private final class Listener implements Lease.Listener {
    @Override
    public void acquired(long token) {
      long waited = (System.nanoTime() - standbySince) / 1_000_000;
      LOG.infof("cluster: node %s now HOLDS the serving lease (token %d, after %d ms as standby); starting the NFS "
          + "and SMB front ends", settings.nodeId(), token, waited);
      observedHolder = settings.nodeId();
      actions.execute(() -> serveUnder(token));
    }

    @Override
    public void lost(long token, String reason) {
      standbySince = System.nanoTime();
      LOG.warnf("cluster: node %s LOST the serving lease (token %d): %s. Fenced: OSS writes are refused from now on; "
          + "stopping the NFS and SMB front ends", settings.nodeId(), token, reason);
      actions.execute(() -> {
        serving = false;
        try {
          roles.stopServing();
        } catch (RuntimeException e) {
          LOG.errorf("cluster: stopping the front ends after the loss failed: %s", e.getMessage());
        }
        LOG.infof("cluster: node %s stopped serving; standby again", settings.nodeId());
      });
    }
  }

  /** Logs a change of the holder as this standby sees it in the store. */
  private void watchHolder() {
    if (lease.state() == Lease.State.HOLDER) {
      return;
    }
    String now;
    try {
      now = lease.valid() ? settings.nodeId()
          : new RedisLeaseStore(store).holder(settings.timeout()).map(h -> h.node() + " (token " + h.token() + ")")
              .orElse("");
    } catch (RuntimeException e) {
      now = "?";
    }
    if (!now.equals(observedHolder) && !now.equals("?")) {
      if (now.isEmpty()) {
        LOG.infof("cluster: the serving lease is free (its holder's key expired or was released); node %s asks for "
            + "it every %d ms", settings.nodeId(), settings.renewInterval().toMillis());
      } else {
        LOG.infof("cluster: the serving lease is held by node %s; node %s stands by", now, settings.nodeId());
      }
      observedHolder = now;
    }
  }

  /** Whether this node serves now: always without a store or in active mode; the lease holder's, in standby mode. */
  public boolean ready() {
    return lease == null || (serving && lease.valid());
  }

  /** For readiness: this node's cluster state in words. */
  public String status() {
    if (settings == null) {
      return "single gateway";
    }
    if (lease == null) {
      return "active (node " + settings.nodeId() + ")";
    }
    if (lease.valid()) {
      return (serving ? "serving" : "starting") + " (node " + settings.nodeId() + ", holds the lease, token "
          + lease.token() + ")";
    }
    var err = lease.storeError();
    String holder = observedHolder.isEmpty() || observedHolder.equals(settings.nodeId()) ? "none" : observedHolder;
    return "standby (node " + settings.nodeId() + "; holder: " + holder + ")"
        + (err == null ? "" : "; store: " + err.getMessage());
  }

  /** The lease in standby mode (tests, metrics). */
  public synchronized Optional<Lease> lease() {
    return Optional.ofNullable(lease);
  }

  /** Stops the lease's renewals; then, after the front ends and engines are closed, {@link #close}. */
  public void stopRenewing() {
    LeaseRunner r;
    synchronized (this) {
      r = runner;
      runner = null;
    }
    if (r != null) {
      r.close();
    }
  }

  /**
   * Gives the lease up (a standby takes over at once) and disconnects. Call after the front ends stopped and every
   * engine is closed: no write of this node may follow.
   */
  public synchronized void close() {
    stopRenewing();
    if (watcher != null) {
      watcher.shutdownNow();
    }
    if (actions != null) {
      actions.shutdownNow();
    }
    if (lease != null) {
      boolean held = lease.valid();
      lease.close();
      if (held) {
        LOG.infof("cluster: node %s released the serving lease (shutdown)", settings.nodeId());
      }
    }
    if (subscription != null) {
      try {
        subscription.close();
      } catch (Exception e) {
        LOG.debugf("closing the invalidation subscription: %s", e.getMessage());
      }
    }
    if (channel != null) {
      channel.close();
    }
    if (store != null) {
      store.close();
    }
    serving = false;
  }

  // --- metrics

  private void record(String op, String outcome, long nanos) {
    Timer.builder("ossgw.cluster.store.requests").description("requests to the cluster store by operation and outcome")
        .tag("op", op).tag("outcome", outcome).register(registry).record(nanos, TimeUnit.NANOSECONDS);
  }

  private void registerLeaseMeters() {
    Gauge.builder("ossgw.cluster.lease.holder", lease, l -> l.valid() ? 1 : 0).strongReference(true)
        .description("1 while this node holds the serving lease").tag("node", settings.nodeId()).register(registry);
    FunctionCounter.builder("ossgw.cluster.lease.acquisitions", lease, Lease::acquisitions)
        .description("times this node took the serving lease").register(registry);
    FunctionCounter.builder("ossgw.cluster.lease.losses", lease, Lease::losses)
        .description("times this node lost the serving lease (fenced)").register(registry);
  }

  private void registerChannelMeters() {
    FunctionCounter.builder("ossgw.cluster.invalidations.sent", channel, RedisInvalidationChannel::sent)
        .description("invalidations this node published").register(registry);
    FunctionCounter.builder("ossgw.cluster.invalidations.received", channel, RedisInvalidationChannel::received)
        .description("invalidations of other nodes applied").register(registry);
    FunctionCounter.builder("ossgw.cluster.invalidations.failed", channel, RedisInvalidationChannel::failed)
        .description("invalidations that could not be published").register(registry);
    FunctionCounter.builder("ossgw.cluster.resyncs", invalidator, EngineInvalidator::resyncs)
        .description("times every cache was dropped after the subscription was down").register(registry);
  }

  /** The lease's time to live (for messages). */
  public Duration leaseTtl() {
    return settings == null ? Duration.ZERO : settings.leaseTtl();
  }

  /** The store's lease operations (tests). */
  LeaseStore leaseStore() {
    return new RedisLeaseStore(store);
  }
}
