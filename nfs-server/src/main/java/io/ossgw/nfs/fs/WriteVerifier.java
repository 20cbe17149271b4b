package io.ossgw.nfs.fs;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The write verifier of WRITE and COMMIT replies (RFC 1813 writeverf3, RFC 8881 verifier4), one per server and shared
 * by NFSv3 and NFSv4.1: random per start, so it changes when the server restarts, and changed again when data
 * acknowledged as UNSTABLE is lost ({@link OpenFiles}'s onLostWrites). A client that sees it change re-sends what it
 * has not seen committed. Thread-safe.
 */
public final class WriteVerifier {
  private static final System.Logger LOG = System.getLogger(WriteVerifier.class.getName());

  private final AtomicLong value = new AtomicLong(new SecureRandom().nextLong());

  /** The current verifier (8 bytes, big-endian on the wire). */
  public long get() {
    return value.get();
  }

  /** Data acknowledged as UNSTABLE was lost: a new verifier makes clients re-send what they did not see committed. */
  public void rotate() {
    value.set(new SecureRandom().nextLong());
    LOG.log(System.Logger.Level.WARNING, "write verifier changed: clients will re-send uncommitted writes");
  }
}
