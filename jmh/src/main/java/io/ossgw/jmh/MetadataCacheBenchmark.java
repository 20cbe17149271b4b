package io.ossgw.jmh;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.cache.MetadataCache;
import io.ossgw.core.meta.Inodes;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The attribute cache on the {@code ls -l} hot path: {@code entries} paths are cached (stat_cache_expire 900 s,
 * max_stat_cache_size = entries), then each operation looks up one random cached path ({@code hit}), one path that is
 * not cached ({@code miss}), or replaces one entry ({@code put}, what a listing or an upload does). Two threads, as on
 * a 2-core gateway where FUSE and NFS callbacks run concurrently.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(2)
public class MetadataCacheBenchmark {
  @Param({"3000", "100000"})
  int entries;

  MetadataCache cache;
  String[] paths;
  Node node;

  @Setup
  public void setup() {
    cache = new MetadataCache(Duration.ofSeconds(900), false, entries * 1024L, true, Ticker.systemTicker()); // room for them all
    paths = new String[entries];
    Instant t = Instant.now();
    for (int i = 0; i < entries; i++) {
      paths[i] = "/dir/file-" + i + ".dat";
      FileAttr a = new FileAttr(Inodes.of(paths[i]), FileType.REGULAR, 0644, 0, 0, i, t, t, t, "ETAG" + i);
      cache.put(paths[i], new Node(a, Origin.FILE, paths[i].substring(1), "Normal", null, Map.of(), null, t, -1));
    }
    node = cache.get(paths[0]).orElseThrow().node();
  }

  @Benchmark
  public Object hit() {
    return cache.get(paths[ThreadLocalRandom.current().nextInt(entries)]);
  }

  @Benchmark
  public Object miss() {
    return cache.get("/elsewhere/" + ThreadLocalRandom.current().nextInt(entries));
  }

  @Benchmark
  public void put() {
    cache.put(paths[ThreadLocalRandom.current().nextInt(entries)], node);
  }
}
