package io.ossgw.core.cache;

import io.ossgw.core.meta.Node;
import io.ossgw.core.vfs.FileAttr;
import java.util.Map;

/**
 * Estimates, in bytes, of what the metadata caches hold on the Java heap (64-bit JVM with compressed references, as
 * the launcher runs it below 32 GB of heap), so that Caffeine's weighers bound each cache in bytes against its share of
 * the memory budget ({@link MetadataBudget}). Estimates, not measurements: the object layouts below are HotSpot's (12-byte
 * headers, 8-byte alignment); docs/benchmarks.md "Big directories" compares them with heap histograms.
 */
public final class Footprint {
  /** A {@code Node} (56 bytes), its {@code FileAttr} (72) and one {@code Instant} (24; the three are often one). */
  static final int NODE = 56 + 72 + 24;
  /** One entry of a Caffeine cache (its node, the key's share of the table) beyond the key and value objects. */
  public static final int CACHE_ENTRY = 64;
  /** One entry of a {@code ConcurrentSkipListMap} (its node and, on average, half an index node). */
  static final int SORTED_ENTRY = 36;

  private Footprint() {}

  /** A String: 24-byte object and its byte array (one byte per char for Latin-1, two otherwise). */
  public static long string(String s) {
    if (s == null) {
      return 0;
    }
    int n = s.length();
    boolean latin1 = true;
    for (int i = 0; i < n && latin1; i++) {
      latin1 = s.charAt(i) < 256;
    }
    return 24 + align(16 + (latin1 ? n : 2L * n));
  }

  /** A resolved node with its attributes, key, ETag, user metadata and symlink target. */
  public static long node(Node n) {
    FileAttr a = n.attr();
    long b = NODE + string(a.etag()) + string(n.objectKey()) + string(n.symlinkTarget());
    if (a.mtime() != a.atime()) {
      b += 48; // three distinct Instants (times from metadata) instead of one shared
    }
    Map<String, String> m = n.userMeta();
    if (m != null && !m.isEmpty()) {
      b += 16 + align(16 + 8L * m.size()); // an immutable map: one array of keys and values (names are shared)
      for (String v : m.values()) {
        b += string(v);
      }
    }
    return b;
  }

  /** A listing entry: the node, its position string when not the node's own, and the sorted map's entry. */
  static long entry(String position, Node n) {
    return SORTED_ENTRY + string(position) + node(n);
  }

  private static long align(long b) {
    return (b + 7) & ~7L;
  }
}
