package io.ossgw.app.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.ossgw.app.serve.Gateway;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.observe.FrontEndFileSystem;
import io.ossgw.fuse.FuseStats;
import io.micrometer.core.instrument.Meter;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

/**
 * Front-end meters, read from the running {@link Gateway} at scrape time (registered once at start-up, so they show 0
 * before anything is served):
 *
 * <ul>
 *   <li>{@code ossgw_frontend_read_bytes_total{frontend}}, {@code ossgw_frontend_written_bytes_total{frontend}}:
 *       bytes read and written by clients of {@code fuse} (the {@code ossgw.mounts.*} FUSE mounts), {@code nfs} (the
 *       NFS exports, counted by the engines' {@code nfs} views) and {@code smb} (the FUSE mounts smbd serves from);
 *   <li>{@code ossgw_nfs_operations_total{procedure}}: NFSv3 calls by RFC 1813 procedure name ({@code getattr},
 *       {@code read}, {@code readdirplus}, ...);
 *   <li>{@code ossgw_spool_bytes}: bytes in open write-spool files ({@link SpoolUsage});
 *   <li>smbd's own meters ({@code ossgw_smb_smbd_up}, {@code ossgw_smb_smbd_restarts_total}) are in
 *       {@link GatewayMetrics}.
 * </ul>
 *
 * Counters restart from 0 when the gateway restarts its front ends (Prometheus {@code rate()} handles resets).
 */
@ApplicationScoped
public class FrontEndMetrics {
  /** RFC 1813 section 3.3 procedure numbers 0..21, as metric label values. */
  static final String[] NFS_PROCEDURES = {"null", "getattr", "setattr", "lookup", "access", "readlink", "read",
      "write", "create", "mkdir", "symlink", "mknod", "remove", "rmdir", "rename", "link", "readdir", "readdirplus",
      "fsstat", "fsinfo", "pathconf", "commit"};
  static final String[] FRONT_ENDS = {"fuse", "nfs", "smb"};

  @Inject MeterRegistry registry;
  @Inject Gateway gateway;

  private final List<Meter> meters = new ArrayList<>();

  synchronized void onStart(@Observes StartupEvent event) {
    for (String fe : FRONT_ENDS) {
      meters.add(FunctionCounter.builder("ossgw.frontend.read", this, m -> m.bytes(fe, false))
          .description("bytes clients read through a front end").baseUnit("bytes").tag("frontend", fe)
          .register(registry));
      meters.add(FunctionCounter.builder("ossgw.frontend.written", this, m -> m.bytes(fe, true))
          .description("bytes clients wrote through a front end").baseUnit("bytes").tag("frontend", fe)
          .register(registry));
    }
    for (int p = 0; p < NFS_PROCEDURES.length; p++) {
      int proc = p;
      meters.add(FunctionCounter.builder("ossgw.nfs.operations", this,
              m -> m.gateway.nfsStats().map(s -> s.calls(proc)).orElse(0L))
          .description("NFSv3 calls by procedure").tag("procedure", NFS_PROCEDURES[p]).register(registry));
    }
    meters.add(Gauge.builder("ossgw.spool", SpoolUsage::bytes)
        .description("bytes in open local write-spool files (tmpdir)").baseUnit("bytes").register(registry));
  }

  /**
   * Removes the meters: they read this application's beans, and Micrometer's global registry outlives the
   * application (a restart in the same JVM, as in tests, would otherwise scrape a stopped container).
   */
  synchronized void onStop(@Observes ShutdownEvent event) {
    meters.forEach(registry::remove);
    meters.clear();
  }

  /** Bytes read or written through one front end, summed over its mounts or engines now. */
  long bytes(String frontEnd, boolean written) {
    return switch (frontEnd) {
      case "fuse" -> sumFuse(gateway.mounts().stream().map(m -> m.handle().stats()), written);
      case "nfs" -> sumViews("nfs", written ? FrontEndFileSystem::writtenBytes : FrontEndFileSystem::readBytes);
      case "smb" -> sumFuse(gateway.smb().stream().flatMap(s -> s.shares().stream()).map(sh -> sh.handle().stats()),
          written);
      default -> 0L;
    };
  }

  private long sumViews(String frontEnd, ToLongFunction<FrontEndFileSystem> f) {
    long total = 0;
    for (Engine e : gateway.engines()) {
      for (FrontEndFileSystem v : e.frontEnds()) {
        if (v.frontEnd().equals(frontEnd)) {
          total += f.applyAsLong(v);
        }
      }
    }
    return total;
  }

  private static long sumFuse(Stream<FuseStats> stats, boolean written) {
    return stats.filter(Objects::nonNull)
        .mapToLong(s -> written ? s.bytesWritten() : s.bytesRead()).sum();
  }
}
