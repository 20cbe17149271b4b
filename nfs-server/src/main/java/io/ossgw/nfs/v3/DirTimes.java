package io.ossgw.nfs.v3;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;

/**
 * When each directory last changed through this server. OSS directories have no mtime that moves when entries are
 * added or removed, but NFS clients revalidate their cached listings only when a directory's mtime/ctime changes
 * (RFC 1813 §4.10): the attributes this server sends for a directory therefore carry the later of its stored mtime
 * and its last change here. Bounded; a forgotten entry only makes a client re-read a listing once more.
 */
final class DirTimes {
  private record Key(int exportId, String path) {}

  private final Cache<Key, Instant> times = Caffeine.newBuilder().maximumSize(100_000)
      .expireAfterWrite(Duration.ofHours(1)).build();

  void changed(int exportId, String dir) {
    Instant now = Instant.now();
    times.asMap().merge(new Key(exportId, dir), now, (a, b) -> a.isAfter(b) ? a : b);
  }

  /** The last change here, or null. */
  Instant lastChange(int exportId, String dir) {
    return times.getIfPresent(new Key(exportId, dir));
  }
}
