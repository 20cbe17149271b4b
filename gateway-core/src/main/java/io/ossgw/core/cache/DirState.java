package io.ossgw.core.cache;

import io.ossgw.core.meta.Node;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One directory's complete listing: child name -> node, in OSS key order, plus when it was listed. The engine keeps it
 * current with its own mutations (create, unlink, rename, mkdir), so a lookup of a missing name in a listed directory
 * needs no request, and re-listing is only needed when the TTL ends.
 *
 * @param children name -> node (thread-safe, sorted)
 * @param listedAtNanos ticker time the LIST started
 * @param verifier a value that changes whenever the directory is listed anew (NFS cookie verifier)
 */
public record DirState(ConcurrentSkipListMap<String, Node> children, long listedAtNanos, long verifier) {
  public DirState(Map<String, Node> initial, long listedAtNanos, long verifier) {
    this(new ConcurrentSkipListMap<>(initial), listedAtNanos, verifier);
  }
}
