package io.ossgw.nfs.rpc;

import com.github.benmanes.caffeine.cache.Cache;
import io.ossgw.core.cache.Caches;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.glassfish.grizzly.Buffer;

/**
 * The duplicate-request cache of non-idempotent procedures (as knfsd keeps one): a client that did not see a reply
 * re-sends the call with the same xid, and re-running REMOVE, RENAME or an exclusive CREATE would turn a success into
 * NFS3ERR_NOENT or NFS3ERR_EXIST. Entries are keyed by client address (not port: clients reconnect from new ports),
 * xid, program, version, procedure and a checksum of the first bytes of the arguments, so an xid reused for another
 * call does not match. A retransmission that arrives while the original still runs waits for its reply.
 */
public final class ReplyCache {
  private static final int CHECKSUM_BYTES = 512;

  /** A call's identity for the cache. */
  public record Key(InetAddress client, int xid, int program, int version, int procedure, long argsChecksum) {}

  private final Cache<Key, CompletableFuture<byte[]>> entries;

  /**
   * @param maxEntries most replies kept
   * @param ttl how long a reply is kept after the call
   */
  public ReplyCache(long maxEntries, Duration ttl) {
    this.entries = Caches.newBuilder().maximumSize(maxEntries).expireAfterWrite(ttl).build();
  }

  /** The key of {@code call}; must be taken before its arguments are decoded. */
  public static Key keyOf(RpcCall call) {
    InetSocketAddress remote = call.getTransport().getRemoteSocketAddress();
    Buffer b = call.getXdr().asBuffer();
    int from = b.position();
    int n = Math.min(CHECKSUM_BYTES, b.limit() - from);
    CRC32C crc = new CRC32C();
    for (int i = 0; i < n; i++) {
      crc.update(b.get(from + i));
    }
    return new Key(remote == null ? null : remote.getAddress(), call.getXid(), call.getProgram(),
        call.getProgramVersion(), call.getProcedure(), crc.getValue());
  }

  /**
   * Registers a call. Returns null for a new call, whose caller must then {@link CompletableFuture#complete} (or fail)
   * the future from {@link #pending}; for a duplicate, the future of the first call's encoded reply.
   */
  public CompletableFuture<byte[]> begin(Key key, CompletableFuture<byte[]> pending) {
    return entries.asMap().putIfAbsent(key, pending);
  }

  /** Forgets a call (its reply could not be produced, so a retransmission must run it again). */
  public void forget(Key key) {
    entries.invalidate(key);
  }

  /** Entries held now (tests). */
  public long size() {
    entries.cleanUp();
    return entries.estimatedSize();
  }
}
