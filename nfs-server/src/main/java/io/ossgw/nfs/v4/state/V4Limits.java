package io.ossgw.nfs.v4.state;

import java.time.Duration;

/**
 * Server-side limits of NFSv4.1 state. Channel limits are the most CREATE_SESSION grants (a client asking for less
 * gets what it asked, RFC 8881 §18.36.3); the others bound memory against a hostile or broken client. What grows with
 * clients (client records, sessions and their reply caches) is charged in bytes against {@link #stateBytes}, of which
 * one client address may hold {@link #perAddressBytes()} ({@link StateBudget}).
 *
 * @param lease the lease (RFC 8881 §8.3, {@code lease_time}); a client silent for longer loses its state
 * @param maxSlots fore channel slots per session (ca_maxrequests)
 * @param maxOperations operations per COMPOUND in a session (ca_maxoperations)
 * @param maxRequestSize bytes per COMPOUND request (ca_maxrequestsize)
 * @param maxResponseSize bytes per COMPOUND reply (ca_maxresponsesize)
 * @param maxResponseSizeCached bytes of a reply kept in a slot's reply cache (ca_maxresponsesize_cached)
 * @param maxCompoundOps operations a COMPOUND may declare before any is read, session or not (the XDR bound)
 * @param maxClients client records (confirmed or not) in all; a client address may hold
 *     {@link #maxClientsPerAddress()} of them
 * @param maxSessionsPerClient sessions per client before CREATE_SESSION answers NFS4ERR_DELAY
 * @param stateBytes heap bytes client records and sessions (with their reply caches) may hold in all
 */
public record V4Limits(Duration lease, int maxSlots, int maxOperations, int maxRequestSize, int maxResponseSize,
    int maxResponseSizeCached, int maxCompoundOps, int maxClients, int maxSessionsPerClient, long stateBytes) {
  /** One client address may hold this fraction (1/4) of {@link #stateBytes} and of {@link #maxClients}. */
  public static final int ADDRESS_SHARE = 4;
  /** The fraction (1/8) of the heap NFSv4.1 client state gets by {@link #forHeap}. */
  public static final int HEAP_SHARE = 8;
  static final long MIN_STATE_BYTES = 4L << 20;
  static final long MAX_STATE_BYTES = 256L << 20;

  /**
   * 90 s lease, 64 slots, 32 operations, 1 MiB of data plus 64 KiB of header each way, 16 KiB cached per slot,
   * 10,000 client records, 16 sessions per client, 64 MiB of state.
   */
  public static final V4Limits DEFAULT = new V4Limits(Duration.ofSeconds(90), 64, 32, (1 << 20) + (64 << 10),
      (1 << 20) + (64 << 10), 16 << 10, 128, 10_000, 16, 64L << 20);

  /**
   * @throws IllegalArgumentException if a limit is not positive, or an address's share cannot hold one client record
   *     with a session of one slot of {@code maxResponseSizeCached}
   */
  public V4Limits {
    if (lease.isNegative() || lease.isZero() || maxSlots < 1 || maxOperations < 1 || maxCompoundOps < maxOperations
        || maxClients < 1 || maxSessionsPerClient < 1 || maxResponseSizeCached < 0 || maxRequestSize < 1
        || maxResponseSize < 1) {
      throw new IllegalArgumentException("bad NFSv4 limits " + this);
    }
    if (stateBytes / ADDRESS_SHARE < StateBudget.recordBytes(1024, 64) + StateBudget.sessionBytes(1,
        maxResponseSizeCached)) {
      throw new IllegalArgumentException("NFSv4 state of " + stateBytes + " bytes cannot hold a client per address");
    }
  }

  /**
   * The limits for a JVM whose heap may grow to {@code heapBytes} ({@link Runtime#maxMemory()}, half of
   * {@code memory_limit} with the launcher): {@link #DEFAULT} with {@link #stateBytes} an eighth of the heap, at least
   * 4 MiB and at most 256 MiB (16 MiB at {@code memory_limit=256}).
   */
  public static V4Limits forHeap(long heapBytes) {
    return DEFAULT.withStateBytes(Math.clamp(heapBytes / HEAP_SHARE, MIN_STATE_BYTES, MAX_STATE_BYTES));
  }

  /** The same limits with another lease. */
  public V4Limits withLease(Duration d) {
    return new V4Limits(d, maxSlots, maxOperations, maxRequestSize, maxResponseSize, maxResponseSizeCached,
        maxCompoundOps, maxClients, maxSessionsPerClient, stateBytes);
  }

  /** The same limits with another state budget. */
  public V4Limits withStateBytes(long bytes) {
    return new V4Limits(lease, maxSlots, maxOperations, maxRequestSize, maxResponseSize, maxResponseSizeCached,
        maxCompoundOps, maxClients, maxSessionsPerClient, bytes);
  }

  /** Heap bytes of client state one client address may hold. */
  public long perAddressBytes() {
    return stateBytes / ADDRESS_SHARE;
  }

  /** Client records one client address may hold. */
  public int maxClientsPerAddress() {
    return Math.max(1, maxClients / ADDRESS_SHARE);
  }
}
