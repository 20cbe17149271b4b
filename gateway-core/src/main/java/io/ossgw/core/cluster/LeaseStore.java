package io.ossgw.core.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where the serving lease lives: one key that at most one node holds, with a time to live the store counts down by its
 * own clock, and a counter that gives each acquisition a larger fencing token. {@link Lease} drives it; the
 * implementations are {@link MemoryLeaseStore} (one process, tests) and the Valkey/Redis store in gateway-app
 * ({@code SET NX PX} and compare-and-renew Lua scripts).
 *
 * <p>Every method returns or throws within {@code timeout}: the caller must know, by its own clock, when its lease
 * runs out even while the store does not answer.
 */
public interface LeaseStore {
  /**
   * The holder as the store sees it.
   *
   * @param node the node id of the holder ({@code ossgw.cluster.node-id})
   * @param token its fencing token
   */
  record Holder(String node, long token) {}

  /**
   * Takes the lease if nobody holds it (the key is absent or has expired).
   *
   * @param node this node's id
   * @param ttl time to live of the key from the store's receipt of this request (milliseconds precision)
   * @param timeout the longest this call may take
   * @return the new fencing token (larger than every earlier one), or empty when another node holds the lease
   * @throws ClusterStoreException the store failed or did not answer in time; the lease may or may not be taken, and
   *     a taken one expires unrenewed after {@code ttl}
   */
  OptionalLong tryAcquire(String node, Duration ttl, Duration timeout);

  /**
   * Extends the lease this node holds under {@code token} to {@code ttl} from now (compare-and-renew: only when the
   * key still names this node and token).
   *
   * @return true when renewed; false when the key expired or another node (or another token of this node) holds it
   * @throws ClusterStoreException the store failed or did not answer in time (the lease was not renewed, as far as
   *     the caller can tell)
   */
  boolean renew(String node, long token, Duration ttl, Duration timeout);

  /**
   * Gives the lease up if this node still holds it under {@code token} (compare-and-delete), so a standby takes it
   * without waiting for the time to live.
   *
   * @throws ClusterStoreException the store failed; the lease then expires on its own
   */
  void release(String node, long token, Duration timeout);

  /** The current holder, or empty when the lease is free. @throws ClusterStoreException the store failed */
  Optional<Holder> holder(Duration timeout);
}
