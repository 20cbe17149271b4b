package io.ossgw.core.cluster;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An invalidation channel inside one process (tests): delivers every message to every subscriber of the same bus at
 * once, on the publisher's thread, as pub/sub delivers to every node; a node's own messages are skipped.
 */
public final class MemoryInvalidationChannel implements InvalidationChannel {
  /** What every channel of one bus sees. */
  public static final class Bus {
    final List<MemoryInvalidationChannel> channels = new CopyOnWriteArrayList<>();
    /** Every message published, in order. */
    public final List<Invalidation> published = new CopyOnWriteArrayList<>();
  }

  private final Bus bus;
  private final String node;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  public MemoryInvalidationChannel(Bus bus, String node) {
    this.bus = bus;
    this.node = node;
    bus.channels.add(this);
  }

  @Override
  public void publish(Invalidation inv) {
    bus.published.add(inv);
    for (MemoryInvalidationChannel c : bus.channels) {
      if (!c.node.equals(inv.origin())) {
        c.listeners.forEach(l -> l.invalidate(inv));
      }
    }
  }

  @Override
  public AutoCloseable subscribe(Listener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public void close() {
    bus.channels.remove(this);
  }
}
