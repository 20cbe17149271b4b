package io.ossgw.nfs.v4.state;

import java.time.Duration;

/**
 * Server-side limits of NFSv4.1 state. Channel limits are the most CREATE_SESSION grants (a client asking for less
 * gets what it asked); the others bound memory against a hostile or broken client.
 *
 * @param lease the lease (RFC 8881 §8.3, {@code lease_time}); a client silent for longer loses its state
 * @param maxSlots fore channel slots per session (ca_maxrequests)
 * @param maxOperations operations per COMPOUND in a session (ca_maxoperations)
 * @param maxRequestSize bytes per COMPOUND request (ca_maxrequestsize)
 * @param maxResponseSize bytes per COMPOUND reply (ca_maxresponsesize)
 * @param maxResponseSizeCached bytes of a reply kept in a slot's reply cache (ca_maxresponsesize_cached)
 * @param maxCompoundOps operations a COMPOUND may declare before any is read, session or not (the XDR bound)
 * @param maxClients client records (confirmed or not) before EXCHANGE_ID answers NFS4ERR_DELAY
 * @param maxSessionsPerClient sessions per client before CREATE_SESSION answers NFS4ERR_DELAY
 */
public record V4Limits(Duration lease, int maxSlots, int maxOperations, int maxRequestSize, int maxResponseSize,
    int maxResponseSizeCached, int maxCompoundOps, int maxClients, int maxSessionsPerClient) {
  /** 90 s lease, 64 slots, 32 operations, 1 MiB of data plus 64 KiB of header each way, 64 KiB cached per slot. */
  public static final V4Limits DEFAULT = new V4Limits(Duration.ofSeconds(90), 64, 32, (1 << 20) + (64 << 10),
      (1 << 20) + (64 << 10), 64 << 10, 128, 10_000, 16);

  public V4Limits {
    if (lease.isNegative() || lease.isZero() || maxSlots < 1 || maxOperations < 1 || maxCompoundOps < maxOperations
        || maxClients < 1 || maxSessionsPerClient < 1 || maxResponseSizeCached < 0) {
      throw new IllegalArgumentException("bad NFSv4 limits " + this);
    }
  }

  /** The same limits with another lease. */
  public V4Limits withLease(Duration d) {
    return new V4Limits(d, maxSlots, maxOperations, maxRequestSize, maxResponseSize, maxResponseSizeCached,
        maxCompoundOps, maxClients, maxSessionsPerClient);
  }
}
