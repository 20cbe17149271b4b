package io.ossgw.app.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ossgw.core.observe.EngineObserver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One engine's {@link EngineObserver} events as Micrometer meters (Prometheus names in {@link GatewayMetrics}). Every
 * meter carries {@code bucket} = the engine's {@code BUCKET} or {@code BUCKET:/PREFIX}; the other labels come from
 * small fixed sets (OSS API names, {@code StoreErrorKind}s, cache names), so the number of series stays bounded.
 * Meters are looked up once per label combination and kept, so the I/O path only increments.
 */
final class MicrometerEngineObserver implements EngineObserver {
  /**
   * Latency buckets of {@code ossgw_oss_requests_seconds}: fixed, so each operation/outcome has 14 series, from a
   * cached HEAD on the same zone (a few ms) to a multipart part on a slow link (tens of seconds).
   */
  static final Duration[] LATENCY_BUCKETS = {Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
      Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60)};
  /** Cache names the engine reports (see io.ossgw.core.observe.EngineObserver#cacheLookups). */
  static final String[] CACHES = {"stat", "dir", "disk"};

  private final MeterRegistry registry;
  private final String bucket;
  /**
   * operation -> outcome -> timer. Two levels keyed by the engine's constant strings, whose hashes are cached: these
   * are looked up on every OSS request and cache lookup, where a concatenated key cost a new string and its hash each
   * time.
   */
  private final Map<String, Map<String, Timer>> requests = new ConcurrentHashMap<>();
  /** meter name -> cache or operation -> counter (same reason). */
  private final Map<String, Map<String, Counter>> counters = new ConcurrentHashMap<>();

  MicrometerEngineObserver(MeterRegistry registry, String bucket) {
    this.registry = registry;
    this.bucket = bucket;
    for (String c : CACHES) { // registered up front: a scrape shows 0, not nothing, before the first lookup
      cacheCounter("ossgw.cache.hits", c);
      cacheCounter("ossgw.cache.misses", c);
      cacheCounter("ossgw.cache.evictions", c);
    }
  }

  @Override
  public void ossRequest(String operation, String outcome, long nanos) {
    requests.computeIfAbsent(operation, k -> new ConcurrentHashMap<>()).computeIfAbsent(outcome, k -> Timer
        .builder("ossgw.oss.requests")
        .description("OSS request attempts by OSS API operation and outcome (ok or the failure kind), with latency")
        .tag("operation", operation).tag("outcome", outcome).tag("bucket", bucket)
        .serviceLevelObjectives(LATENCY_BUCKETS).register(registry)).record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void ossRetry(String operation) {
    counters.computeIfAbsent("ossgw.oss.retries", k -> new ConcurrentHashMap<>()).computeIfAbsent(operation,
        k -> Counter.builder("ossgw.oss.retries")
        .description("OSS requests retried after a transient failure (5xx, 429, timeout, reset)")
        .tag("operation", operation).tag("bucket", bucket).register(registry)).increment();
  }

  @Override
  public void cacheLookups(String cache, boolean hit, int count) {
    cacheCounter(hit ? "ossgw.cache.hits" : "ossgw.cache.misses", cache).increment(count);
  }

  @Override
  public void cacheEviction(String cache) {
    cacheCounter("ossgw.cache.evictions", cache).increment();
  }

  private Counter cacheCounter(String name, String cache) {
    return counters.computeIfAbsent(name, k -> new ConcurrentHashMap<>()).computeIfAbsent(cache, k -> Counter
        .builder(name)
        .description(switch (name) {
          case "ossgw.cache.hits" -> "cache lookups that found a live entry";
          case "ossgw.cache.misses" -> "cache lookups that found nothing (or an expired entry)";
          default -> "cache entries dropped by the size bound or the TTL";
        })
        .tag("cache", cache).tag("bucket", bucket).register(registry));
  }
}
