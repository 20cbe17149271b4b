package io.ossgw.nfs.rpc;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.glassfish.grizzly.Buffer;

/**
 * The duplicate-request cache of non-idempotent procedures (as knfsd keeps one): a client that did not see a reply
 * re-sends the call with the same xid, and re-running REMOVE, RENAME or an exclusive CREATE would turn a success into
 * NFS3ERR_NOENT or NFS3ERR_EXIST. Entries are keyed by client address (not port: clients reconnect from new ports),
 * xid, program, version, procedure and a checksum of the first bytes of the arguments, so an xid reused for another
 * call does not match. A retransmission that arrives while the original still runs waits for its reply.
 *
 * <p>Shape: at most {@code maxEntries} calls, the oldest registered pushed out first (a ring in registration order, as
 * knfsd's cache drops its least recent entry); an entry older than the time to live counts as absent, so a call
 * repeated with the same xid after it runs again. Why not a Caffeine cache: every call through this cache is a write,
 * and Caffeine's admission and eviction maintenance on each write (W-TinyLFU, a frequency sketch, expiry queues) was
 * 4-5 % of the gateway's CPU on NFS small-file writes (docs/benchmarks.md "Eighth pass"); a duplicate-request cache
 * needs no frequency policy, only "keep the latest N".
 */
public final class ReplyCache {
  private static final int CHECKSUM_BYTES = 512;

  /** A call's identity for the cache. */
  public static final class Key {
    private final InetAddress client;
    private final int xid;
    private final int program;
    private final int version;
    private final int procedure;
    private final long argsChecksum;
    private final int hash;

    /**
     * @param client the client's address, or null when unknown
     * @param xid the call's transaction id (RFC 5531 section 9)
     * @param program the RPC program number
     * @param version the program version
     * @param procedure the procedure number
     * @param argsChecksum CRC-32C of the first 512 bytes of the encoded arguments
     */
    public Key(InetAddress client, int xid, int program, int version, int procedure, long argsChecksum) {
      this.client = client;
      this.xid = xid;
      this.program = program;
      this.version = version;
      this.procedure = procedure;
      this.argsChecksum = argsChecksum;
      int h = Objects.hashCode(client);
      h = h * 31 + xid;
      h = h * 31 + procedure;
      h = h * 31 + Long.hashCode(argsChecksum);
      this.hash = h * 31 + program * 7 + version;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.xid == xid && k.procedure == procedure && k.argsChecksum == argsChecksum
          && k.program == program && k.version == version && Objects.equals(k.client, client);
    }

    @Override
    public String toString() {
      return "Key[" + client + " xid=" + Integer.toUnsignedString(xid) + " " + program + "/" + version + "/"
          + procedure + "]";
    }
  }

  /** One registered call: its key (to push it out by), its reply and when it was registered. */
  private record Entry(Key key, CompletableFuture<byte[]> reply, long bornNanos) {}

  private final ConcurrentHashMap<Key, Entry> entries;
  /** The entries in registration order; slot {@code n % length} holds the n-th registration until the next lap. */
  private final AtomicReferenceArray<Entry> ring;
  private final AtomicLong registered = new AtomicLong();
  private final long ttlNanos;
  private final LongSupplier nanoTicker;

  /**
   * @param maxEntries most replies kept (>= 1)
   * @param ttl how long a reply is kept after the call was registered
   * @throws IllegalArgumentException if maxEntries is not in [1, 2^30] or ttl is not positive
   */
  public ReplyCache(int maxEntries, Duration ttl) {
    this(maxEntries, ttl, System::nanoTime);
  }

  /**
   * @param maxEntries most replies kept (>= 1)
   * @param ttl how long a reply is kept after the call was registered
   * @param nanoTicker the clock, in nanoseconds ({@link System#nanoTime} outside tests)
   * @throws IllegalArgumentException if maxEntries is not in [1, 2^30] or ttl is not positive
   */
  public ReplyCache(int maxEntries, Duration ttl, LongSupplier nanoTicker) {
    if (maxEntries < 1 || maxEntries > 1 << 30) {
      throw new IllegalArgumentException("reply cache size out of range: " + maxEntries);
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("reply cache ttl must be positive: " + ttl);
    }
    this.entries = new ConcurrentHashMap<>(Math.min(maxEntries, 1 << 16));
    this.ring = new AtomicReferenceArray<>(maxEntries);
    this.ttlNanos = ttl.toNanos();
    this.nanoTicker = nanoTicker;
  }

  /** The key of {@code call}; must be taken before its arguments are decoded. */
  public static Key keyOf(RpcCall call) {
    InetSocketAddress remote = call.getTransport().getRemoteSocketAddress();
    Buffer b = call.getXdr().asBuffer();
    int from = b.position();
    int n = Math.min(CHECKSUM_BYTES, b.limit() - from);
    return new Key(remote == null ? null : remote.getAddress(), call.getXid(), call.getProgram(),
        call.getProgramVersion(), call.getProcedure(), BufferCrc.of(b, from, from + n));
  }

  /**
   * Registers a call. Returns null for a new call, whose caller must then {@link CompletableFuture#complete} (or fail)
   * the future from {@link #pending}; for a duplicate registered within the time to live, the future of the first
   * call's encoded reply.
   */
  public CompletableFuture<byte[]> begin(Key key, CompletableFuture<byte[]> pending) {
    long now = nanoTicker.getAsLong();
    Entry mine = new Entry(key, pending, now);
    while (true) {
      Entry first = entries.putIfAbsent(key, mine);
      if (first == null) {
        admit(mine);
        return null;
      }
      if (now - first.bornNanos() < ttlNanos) {
        return first.reply();
      }
      if (entries.replace(key, first, mine)) { // expired: this call runs again and becomes the entry
        admit(mine);
        return null;
      }
    }
  }

  /** Takes the next ring slot, pushing out the entry registered one lap (maxEntries registrations) ago. */
  private void admit(Entry e) {
    int slot = (int) Long.remainderUnsigned(registered.getAndIncrement(), ring.length());
    Entry old = ring.getAndSet(slot, e);
    if (old != null) {
      entries.remove(old.key(), old); // only that registration: a newer one under the same key stays
    }
  }

  /** Forgets a call (its reply could not be produced, so a retransmission must run it again). */
  public void forget(Key key) {
    entries.remove(key);
  }

  /** Entries held now, expired ones included until pushed out (tests). */
  public long size() {
    return entries.size();
  }
}
