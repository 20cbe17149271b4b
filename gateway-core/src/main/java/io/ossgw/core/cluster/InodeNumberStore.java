package io.ossgw.core.cluster;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared key &lt;-&gt; inode-number table of a cluster (issue 23 item 1): every gateway answers the same number,
 * and so the same NFS file handle and {@code st_ino}, for the same object. Numbers are allocated atomically in the
 * store: the preferred number (the engine's hash of the key) when no other key holds it, else the next value of a
 * counter. {@link Memory} is the single-process form; gateway-app has the Valkey/Redis one (a Lua script per
 * allocation). Phase 2 puts it under {@code io.ossgw.core.inode.InodeTable} when {@code ossgw.cluster.store} is set.
 *
 * @see io.ossgw.core.inode.InodeTable
 */
public interface InodeNumberStore {
  /**
   * The number of {@code key} in name space {@code space}, allocated on first use.
   *
   * @param space the name space (an engine's mount id; numbers are unique within it)
   * @param key the object key or path it numbers
   * @param preferred the number to take when free (positive), or 0 for the counter's next
   * @return a positive number, the same for the same key from every node until {@link #removed}
   * @throws ClusterStoreException the store failed (FULL: no number was allocated)
   */
  long numberOf(String space, String key, long preferred);

  /** The number {@code key} holds, or 0 when it has none. @throws ClusterStoreException the store failed */
  long known(String space, String key);

  /** The key holding {@code number}, or null. @throws ClusterStoreException the store failed */
  String keyOf(String space, long number);

  /** Frees the key's number (its handles become stale). @throws ClusterStoreException the store failed */
  void removed(String space, String key);

  /** The single-process table, in memory. */
  final class Memory implements InodeNumberStore {
    private final ConcurrentHashMap<String, Long> numbers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, String> keys = new ConcurrentHashMap<>();
    private long counter = 1;

    @Override
    public synchronized long numberOf(String space, String key, long preferred) {
      Long n = numbers.get(space + "\n" + key);
      if (n != null) {
        return n;
      }
      long pick = preferred;
      while (pick <= 1 || keys.containsKey(space + "\n" + pick)) {
        pick = ++counter;
      }
      numbers.put(space + "\n" + key, pick);
      keys.put(space + "\n" + pick, key);
      return pick;
    }

    @Override
    public long known(String space, String key) {
      Long n = numbers.get(space + "\n" + key);
      return n == null ? 0 : n;
    }

    @Override
    public String keyOf(String space, long number) {
      return keys.get(space + "\n" + number);
    }

    @Override
    public synchronized void removed(String space, String key) {
      Long n = numbers.remove(space + "\n" + key);
      if (n != null) {
        keys.remove(space + "\n" + n);
      }
    }
  }
}
