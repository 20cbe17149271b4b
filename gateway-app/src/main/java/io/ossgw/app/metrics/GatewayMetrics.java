package io.ossgw.app.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.ossgw.app.mount.MountHandle;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.observe.EngineObserver;
import io.ossgw.fuse.FuseOp;
import io.ossgw.fuse.FuseStats;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's Prometheus metrics ({@code /q/metrics}); docs/deploy.md "Metrics" lists them all. Engine-level meters
 * carry {@code bucket} ({@code BUCKET} or {@code BUCKET:/PREFIX}); front-end, NFS, SMB and spool meters are in
 * {@link FrontEndMetrics}.
 *
 * <ul>
 *   <li>{@code ossgw_engine_starts_total}: engines started (one per distinct bucket/prefix);
 *   <li>{@code ossgw_oss_requests_seconds{operation,outcome,bucket}}: OSS request attempts with latency histogram
 *       ({@link MicrometerEngineObserver}); {@code ossgw_oss_retries_total{operation,bucket}};
 *   <li>{@code ossgw_cache_hits_total}, {@code ossgw_cache_misses_total}, {@code ossgw_cache_evictions_total}
 *       {@code {cache,bucket}}: cache {@code stat} (attributes, "no such file"), {@code dir} (listings), {@code disk}
 *       (the use_cache data cache);
 *   <li>{@code ossgw_memory_used_bytes}, {@code ossgw_memory_peak_bytes}, {@code ossgw_memory_budget_bytes}
 *       {@code {bucket}}: prefetch and upload buffers against the budget (option memory_limit);
 *   <li>{@code ossgw_fuse_operations_total{mount,op}}: FUSE callbacks per operation ({@link FuseStats#count});
 *   <li>{@code ossgw_fuse_errors_total{mount,op}}: callbacks that returned an error;
 *   <li>{@code ossgw_fuse_read_bytes_total{mount}}, {@code ossgw_fuse_written_bytes_total{mount}};
 *   <li>{@code ossgw_mount_up{mount}}: 1 while mounted, 0 after an unexpected unmount (SMB shares' mounts are
 *       named {@code smb:<share>});
 *   <li>{@code ossgw_smb_smbd_restarts_total}: times smbd exited on its own and was started again;
 *   <li>{@code ossgw_smb_smbd_up}: 1 while smbd runs.
 * </ul>
 */
@ApplicationScoped
public class GatewayMetrics {
  @Inject
  MeterRegistry registry;

  private Counter engineStarts;
  private final List<Meter> perMount = new ArrayList<>();
  private final List<Meter> perEngine = new ArrayList<>();
  private final List<Meter> perSmb = new ArrayList<>();

  /** Registers the counters that exist from the start, so /q/metrics shows them at 0 before the first mount. */
  void onStart(@jakarta.enterprise.event.Observes io.quarkus.runtime.StartupEvent event) {
    engineStarts();
  }

  private synchronized Counter engineStarts() {
    if (engineStarts == null) {
      engineStarts = Counter.builder("ossgw.engine.starts").description("OSS engines started").register(registry);
    }
    return engineStarts;
  }

  /** Counts one engine start. */
  public void engineStarted() {
    engineStarts().increment();
  }

  /** The label of an engine's meters: {@code BUCKET} or {@code BUCKET:/PREFIX}. */
  public static String engineLabel(EngineConfig c) {
    return c.prefix().isEmpty() ? c.bucket() : c.bucket() + ":/" + c.prefix().replaceAll("/+$", "");
  }

  /** The observer to start an engine with ({@code Engine.start(config, observer)}): OSS requests, retries, caches. */
  public EngineObserver observer(EngineConfig config) {
    return new MicrometerEngineObserver(registry, engineLabel(config));
  }

  /** Counts one engine start and registers its memory-budget gauges. */
  public synchronized void engineStarted(Engine engine) {
    engineStarted();
    String bucket = engineLabel(engine.config());
    perEngine.add(Gauge.builder("ossgw.memory.used", engine, e -> e.memoryBudget().used()).strongReference(true)
        .description("prefetch and upload buffer bytes reserved now").baseUnit("bytes").tag("bucket", bucket)
        .register(registry));
    perEngine.add(Gauge.builder("ossgw.memory.peak", engine, e -> e.memoryBudget().peak()).strongReference(true)
        .description("most prefetch and upload buffer bytes reserved at once").baseUnit("bytes")
        .tag("bucket", bucket).register(registry));
    perEngine.add(Gauge.builder("ossgw.memory.budget", engine, e -> e.memoryBudget().capacity())
        .strongReference(true).description("the prefetch and upload buffer budget (a quarter of option memory_limit)")
        .baseUnit("bytes").tag("bucket", bucket).register(registry));
  }

  /** Registers the meters of one mount. */
  public synchronized void mountAdded(String name, MountHandle handle) {
    engineStarts();
    FuseStats stats = handle.stats();
    if (stats != null) {
      for (FuseOp op : FuseOp.values()) {
        perMount.add(FunctionCounter.builder("ossgw.fuse.operations", stats, s -> s.count(op))
            .description("FUSE callbacks by operation").tag("mount", name).tag("op", op.name().toLowerCase())
            .register(registry));
        perMount.add(FunctionCounter.builder("ossgw.fuse.errors", stats, s -> s.errors(op))
            .description("FUSE callbacks that returned an error").tag("mount", name)
            .tag("op", op.name().toLowerCase()).register(registry));
      }
      perMount.add(FunctionCounter.builder("ossgw.fuse.read.bytes", stats, FuseStats::bytesRead)
          .description("bytes returned by FUSE reads").baseUnit("bytes").tag("mount", name).register(registry));
      perMount.add(FunctionCounter.builder("ossgw.fuse.written.bytes", stats, FuseStats::bytesWritten)
          .description("bytes accepted by FUSE writes").baseUnit("bytes").tag("mount", name).register(registry));
    }
    perMount.add(Gauge.builder("ossgw.mount.up", handle, h -> h.isMounted() ? 1 : 0).strongReference(true)
        .description("1 while the FUSE mount is live").tag("mount", name).register(registry));
  }

  /**
   * Registers smbd's meters and those of the shares' mounts ({@code smb:<share>}); {@link #smbStopped} removes them
   * (a standby that takes the cluster lease starts SMB again, with new objects to measure).
   */
  public synchronized void smbStarted(io.ossgw.app.smb.SmbService smb) {
    int before = perMount.size();
    smb.shares().forEach(sh -> mountAdded("smb:" + sh.share().name(), sh.handle()));
    perSmb.addAll(perMount.subList(before, perMount.size()));
    perMount.subList(before, perMount.size()).clear();
    perSmb.add(FunctionCounter.builder("ossgw.smb.smbd.restarts", smb, io.ossgw.app.smb.SmbService::smbdRestarts)
        .description("times smbd exited on its own and was restarted").register(registry));
    perSmb.add(Gauge.builder("ossgw.smb.smbd.up", smb, s -> s.smbdRunning() ? 1 : 0).strongReference(true)
        .description("1 while smbd runs").register(registry));
  }

  /** Removes the meters {@link #smbStarted} registered. */
  public synchronized void smbStopped() {
    perSmb.forEach(registry::remove);
    perSmb.clear();
  }

  /** Removes every per-mount and per-engine gauge (on shutdown: they would hold closed objects). */
  public synchronized void mountsRemoved() {
    perMount.forEach(registry::remove);
    perMount.clear();
    perEngine.forEach(registry::remove);
    perEngine.clear();
    smbStopped();
  }
}
