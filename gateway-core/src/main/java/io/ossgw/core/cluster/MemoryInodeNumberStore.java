package io.ossgw.core.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An {@link InodeNumberStore} in this process's memory: the shared table of several gateways of one process (tests of
 * the NFS server's shared handles) and the reference the Valkey/Redis store's scripts follow, step for step. {@link
 * #down} makes every call fail as an unreachable store would. Every method is atomic (synchronized), as each Lua
 * script is.
 */
public final class MemoryInodeNumberStore implements InodeNumberStore {
  private byte[] secret;
  /** Per name space: number to entry; path to number (sorted: a directory rename moves a key range). */
  private final Map<Integer, Map<Long, Entry>> byNumber = new HashMap<>();
  private final Map<Integer, TreeMap<String, Long>> byPath = new HashMap<>();
  private volatile boolean down;
  /** Calls so far: each would be one request (one script) to the Valkey/Redis store. */
  private long requests;

  /** The calls made so far, each one request to a real store (tests count a procedure's round trips). */
  public synchronized long requests() {
    return requests;
  }

  /** While true every call throws {@link ClusterStoreException.Kind#UNREACHABLE}. */
  public void down(boolean d) {
    this.down = d;
  }

  private void check() {
    requests++;
    if (down) {
      throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "memory store: down (test)", null);
    }
  }

  private Map<Long, Entry> numbers(int space) {
    return byNumber.computeIfAbsent(space, s -> new HashMap<>());
  }

  private TreeMap<String, Long> paths(int space) {
    return byPath.computeIfAbsent(space, s -> new TreeMap<>());
  }

  @Override
  public synchronized byte[] secret(byte[] proposed) {
    check();
    if (secret == null) {
      secret = proposed.clone();
    }
    return secret.clone();
  }

  @Override
  public synchronized long[] known(int space, String path) {
    check();
    return live(space, path);
  }

  private long[] live(int space, String path) {
    Long n = paths(space).get(path);
    Entry e = n == null ? null : numbers(space).get(n);
    return e != null && path.equals(e.path()) ? new long[] {n, e.generation()} : null;
  }

  @Override
  public synchronized Entry resolve(int space, long number) {
    check();
    return numbers(space).get(number);
  }

  @Override
  public synchronized Entry resolveNamed(int space, long number, long parent, boolean parentIsRoot, String name) {
    check();
    Entry e = numbers(space).get(number);
    if (e != null) {
      return e;
    }
    Entry p = parentIsRoot ? new Entry(0, "/") : numbers(space).get(parent);
    if (p == null || p.path() == null) {
      return null;
    }
    String path = p.path().equals("/") ? "/" + name : p.path() + "/" + name;
    return live(space, path) == null ? new Entry(1, path) : null;
  }

  @Override
  public synchronized long[] allocate(int space, String path, long[] candidates, boolean record) {
    check();
    long[] k = live(space, path);
    if (k != null) {
      return k;
    }
    for (int j = 0; j < candidates.length; j++) {
      Entry e = numbers(space).get(candidates[j]);
      if (e == null || e.path() == null) {
        if (!record && j == 0) {
          return new long[] {candidates[0], 0, e == null ? 1 : 0};
        }
        int gen = e == null ? 1 : e.generation() + 1;
        numbers(space).put(candidates[j], new Entry(gen, path));
        paths(space).put(path, candidates[j]);
        return new long[] {candidates[j], gen};
      }
    }
    return null;
  }

  @Override
  public synchronized void removed(int space, String path) {
    check();
    remove(space, path);
  }

  private void remove(int space, String path) {
    Long n = paths(space).remove(path);
    if (n != null) {
      tomb(space, n);
    }
  }

  private void tomb(int space, long n) {
    Entry e = numbers(space).get(n);
    if (e != null) {
      numbers(space).put(n, new Entry(e.generation(), null));
    }
  }

  @Override
  public synchronized void renamed(int space, String from, String to) {
    check();
    TreeMap<String, Long> p = paths(space);
    List<Map.Entry<String, Long>> moving = new ArrayList<>();
    if (p.containsKey(from)) {
      moving.add(Map.entry(from, p.get(from)));
    }
    // every path starting with from + "/": the range [from/, from0) ('0' follows '/')
    moving.addAll(new ArrayList<>(p.subMap(from + "/", true, from + "0", false).entrySet()));
    remove(space, to);
    for (Map.Entry<String, Long> m : moving) {
      String np = to + m.getKey().substring(from.length());
      p.remove(m.getKey());
      Long displaced = p.put(np, m.getValue());
      if (displaced != null && !displaced.equals(m.getValue())) {
        tomb(space, displaced);
      }
      Entry e = numbers(space).get(m.getValue());
      numbers(space).put(m.getValue(), new Entry(e == null ? 1 : e.generation(), np));
    }
  }
}
