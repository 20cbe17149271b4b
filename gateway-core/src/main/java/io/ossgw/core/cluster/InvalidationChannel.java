package io.ossgw.core.cluster;

import java.util.function.Consumer;

/**
 * The channel cache invalidations travel on between the gateways of one cluster (Valkey/Redis pub/sub in gateway-app;
 * {@link #NONE} for a single gateway). Delivery is best effort and at most once: a message published while a
 * subscriber is disconnected is lost to it, so a subscriber that reconnects drops its whole cache (the implementation
 * tells it with {@link Listener#resync}). The cached attributes' TTL (stat_cache_expire) bounds what a lost message
 * can cost.
 */
public interface InvalidationChannel extends AutoCloseable {
  /** Receives the invalidations of the other nodes. Called on the channel's thread: must not block for long. */
  interface Listener {
    /** One invalidation from another node. */
    void invalidate(Invalidation inv);

    /** Messages may have been lost (the subscription was down and is back): drop everything cached. */
    void resync();
  }

  /** No cluster: nothing is sent, nothing arrives. */
  InvalidationChannel NONE = new InvalidationChannel() {
    @Override
    public void publish(Invalidation inv) {}

    @Override
    public AutoCloseable subscribe(Listener listener) {
      return () -> {};
    }

    @Override
    public void close() {}
  };

  /**
   * Sends an invalidation to every other node. Never blocks the caller on the store and never throws: a failure is
   * counted and logged by the implementation (the change itself is in OSS already).
   */
  void publish(Invalidation inv);

  /** Starts delivering the other nodes' invalidations to {@code listener} until the returned handle is closed. */
  AutoCloseable subscribe(Listener listener);

  /** A listener from two callbacks (tests, simple subscribers). */
  static Listener listener(Consumer<Invalidation> onInvalidate, Runnable onResync) {
    return new Listener() {
      @Override
      public void invalidate(Invalidation inv) {
        onInvalidate.accept(inv);
      }

      @Override
      public void resync() {
        onResync.run();
      }
    };
  }

  @Override
  void close();
}
