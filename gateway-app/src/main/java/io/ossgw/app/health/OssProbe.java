package io.ossgw.app.health;

import io.ossgw.core.engine.Engine;
import io.ossgw.core.store.StoreException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether OSS answers for an engine: one ListObjectsV2 (max-keys=1) under its prefix, the same request as the
 * mount-time bucket check, remembered for the configured interval so that frequent health probes (Kubernetes polls
 * every few seconds) do not turn into a request stream.
 */
@ApplicationScoped
public class OssProbe {
  /** A remembered answer: null error means reachable. */
  record Result(long atNanos, String error) {}

  private final Map<Engine, Result> last = new ConcurrentHashMap<>();

  /** @return null if OSS answered, else what went wrong */
  public String check(Engine engine, Duration interval) {
    Result r = last.get(engine);
    long now = System.nanoTime();
    if (r != null && now - r.atNanos() < interval.toNanos()) {
      return r.error();
    }
    String error;
    try {
      engine.store().listObjectsV2(engine.config().prefix(), "/", null, null, 1);
      error = null;
    } catch (StoreException e) {
      error = e.code() + ": " + e.getMessage();
    } catch (RuntimeException e) {
      error = e.toString();
    }
    last.put(engine, new Result(now, error));
    return error;
  }
}
