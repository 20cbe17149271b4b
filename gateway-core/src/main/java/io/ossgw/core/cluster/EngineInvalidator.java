package io.ossgw.core.cluster;

import io.ossgw.core.engine.Engine;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Applies the other nodes' {@link Invalidation}s to this node's engines: each engine of the message's bucket whose
 * prefix holds the key drops that path ({@link Engine#invalidate}); a tree above an engine's prefix, and a
 * {@link #resync()} after lost messages, drop everything the engine caches ({@link Engine#invalidateAll}).
 */
public final class EngineInvalidator implements InvalidationChannel.Listener {
  private final List<Engine> engines = new CopyOnWriteArrayList<>();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong resyncs = new AtomicLong();

  /** Adds an engine (started after the subscription; it has nothing cached yet). */
  public void add(Engine engine) {
    engines.add(engine);
  }

  /** Removes an engine (closed). */
  public void remove(Engine engine) {
    engines.remove(engine);
  }

  @Override
  public void invalidate(Invalidation inv) {
    received.incrementAndGet();
    for (Engine e : engines) {
      String bucket = e.config().bucket();
      String prefix = e.config().prefix();
      String path = inv.pathIn(bucket, prefix);
      if (path != null) {
        e.invalidate(path, inv.tree());
      } else if (inv.covers(bucket, prefix)) {
        e.invalidateAll();
      }
    }
  }

  @Override
  public void resync() {
    resyncs.incrementAndGet();
    engines.forEach(Engine::invalidateAll);
  }

  /** Invalidations received from other nodes. */
  public long received() {
    return received.get();
  }

  /** Times every cache was dropped because messages may have been lost. */
  public long resyncs() {
    return resyncs.get();
  }
}
