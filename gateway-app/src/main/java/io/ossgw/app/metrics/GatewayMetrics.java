package io.ossgw.app.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.ossgw.app.mount.MountHandle;
import io.ossgw.fuse.FuseOp;
import io.ossgw.fuse.FuseStats;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * The gateway's Prometheus metrics ({@code /q/metrics}):
 *
 * <ul>
 *   <li>{@code ossgw_engine_starts_total}: engines started (one per distinct bucket/prefix);
 *   <li>{@code ossgw_fuse_operations_total{mount,op}}: FUSE callbacks per operation ({@link FuseStats#count});
 *   <li>{@code ossgw_fuse_errors_total{mount,op}}: callbacks that returned an error;
 *   <li>{@code ossgw_fuse_read_bytes_total{mount}}, {@code ossgw_fuse_written_bytes_total{mount}};
 *   <li>{@code ossgw_mount_up{mount}}: 1 while mounted, 0 after an unexpected unmount.
 * </ul>
 */
@ApplicationScoped
public class GatewayMetrics {
  @Inject
  MeterRegistry registry;

  private Counter engineStarts;
  private final List<Meter> perMount = new ArrayList<>();

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

  /** Removes every per-mount meter (on shutdown). */
  public synchronized void mountsRemoved() {
    perMount.forEach(registry::remove);
    perMount.clear();
  }
}
