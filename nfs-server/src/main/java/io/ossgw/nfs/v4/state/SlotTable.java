package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.Nfs4;

/**
 * The fore channel slot table of one session (RFC 8881 §2.10.6.1): per slot the last sequence id seen, whether a
 * request on it is running, a hash of that request and its cached reply. This gives exactly-once semantics: a
 * retransmission (same slot, same sequence id) gets the cached reply without running again.
 *
 * <p>Thread-safe (one monitor per table; the work done under it is a few field reads).
 */
public final class SlotTable {
  /** What {@link #begin} decided. */
  public sealed interface Begin permits Run, Replay {}

  /** A new request: run it, then {@link #complete}. */
  public record Run() implements Begin {}

  /** A retransmission of a completed request: send {@code reply} (an encoded COMPOUND4res) again. */
  public record Replay(byte[] reply) implements Begin {}

  private static final Run RUN = new Run();

  private final int[] seqids;
  private final boolean[] used;
  private final boolean[] running;
  private final long[] hashes;
  private final byte[][] replies;

  /** @param slots number of slots, at least 1 */
  public SlotTable(int slots) {
    seqids = new int[slots];
    used = new boolean[slots];
    running = new boolean[slots];
    hashes = new long[slots];
    replies = new byte[slots][];
  }

  /** Number of slots (the highest slot id is one less). */
  public int size() {
    return seqids.length;
  }

  /**
   * Checks a SEQUENCE against its slot (RFC 8881 §18.46.3).
   *
   * @param slotid sa_slotid (unsigned)
   * @param seqid sa_sequenceid (unsigned, wraps)
   * @param requestHash a hash of the whole COMPOUND request, to tell a true retry from a false one
   * @throws Nfs4Exception NFS4ERR_BADSLOT (slot id out of range), NFS4ERR_DELAY (the slot's request is still
   *     running), NFS4ERR_SEQ_FALSE_RETRY (same sequence id, different request), NFS4ERR_RETRY_UNCACHED_REP (a retry
   *     whose reply was too big to keep), NFS4ERR_SEQ_MISORDERED (any other sequence id)
   */
  public synchronized Begin begin(int slotid, int seqid, long requestHash) {
    if (Integer.compareUnsigned(slotid, seqids.length) >= 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BADSLOT, "slot " + Integer.toUnsignedString(slotid));
    }
    if (running[slotid]) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "slot " + slotid + " busy");
    }
    if (used[slotid] && seqid == seqids[slotid]) {
      if (hashes[slotid] != requestHash) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_SEQ_FALSE_RETRY, "slot " + slotid + " seq " + seqid);
      }
      if (replies[slotid] == null) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_RETRY_UNCACHED_REP, "slot " + slotid + " seq " + seqid);
      }
      return new Replay(replies[slotid]);
    }
    if (seqid != seqids[slotid] + 1) { // a fresh slot starts at 0, so the first request is 1 (§2.10.6.1)
      throw new Nfs4Exception(Nfs4.NFS4ERR_SEQ_MISORDERED,
          "slot " + slotid + " expects " + Integer.toUnsignedString(seqids[slotid] + 1) + ", got "
              + Integer.toUnsignedString(seqid));
    }
    seqids[slotid] = seqid;
    used[slotid] = true;
    running[slotid] = true;
    hashes[slotid] = requestHash;
    replies[slotid] = null;
    return RUN;
  }

  /**
   * Ends the request running on {@code slotid}, keeping its reply for retransmissions.
   *
   * @param reply the encoded COMPOUND4res, or null if it is too big to keep (a retry then gets
   *     NFS4ERR_RETRY_UNCACHED_REP)
   */
  public synchronized void complete(int slotid, byte[] reply) {
    running[slotid] = false;
    replies[slotid] = reply;
  }

  /** True while any slot's request is running (the lease must not expire under it). */
  public synchronized boolean busy() {
    for (boolean r : running) {
      if (r) {
        return true;
      }
    }
    return false;
  }

  /** Bytes held by cached replies. */
  public synchronized long cachedBytes() {
    long n = 0;
    for (byte[] r : replies) {
      n += r == null ? 0 : r.length;
    }
    return n;
  }
}
