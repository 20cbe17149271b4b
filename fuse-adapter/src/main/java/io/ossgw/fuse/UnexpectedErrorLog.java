package io.ossgw.fuse;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs unexpected callback failures once per (operation, path, exception class), so a backend that throws on every
 * request does not flood the log at FUSE request rates. After {@value #MAX_KEYS} distinct keys only every
 * 1000th further failure is logged.
 */
final class UnexpectedErrorLog {
  private static final Logger LOG = LoggerFactory.getLogger(FuseFilesystem.class);
  private static final int MAX_KEYS = 1024;

  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final AtomicLong overflow = new AtomicLong();

  void unexpected(FuseOp op, String path, Throwable t) {
    if (firstTime(op + " " + path + " " + t.getClass().getName())) {
      LOG.warn("FUSE {} {} failed unexpectedly; answered EIO", op, path, t);
    }
  }

  void skippedName(String dir, String name) {
    if (firstTime("skip " + dir + "/" + name)) {
      LOG.warn("not listing '{}' in {}: a FUSE name must be 1..255 bytes without '/' or NUL", name, dir);
    }
  }

  private boolean firstTime(String key) {
    if (seen.size() < MAX_KEYS) {
      return seen.add(key);
    }
    return overflow.incrementAndGet() % 1000 == 1;
  }
}
