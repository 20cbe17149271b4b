package io.ossgw.core.memory;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one memory budget for prefetch and upload buffers (DESIGN.md "Rules the engine keeps"). Callers reserve bytes
 * before they allocate buffers and give them back after; when the budget is spent, {@link #tryReserve} fails and
 * callers fall back (reads go straight to ranged GETs) instead of allocating: no OOM.
 */
public final class MemoryBudget {
  private final long capacity;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  /** @param capacityBytes the budget in bytes */
  public MemoryBudget(long capacityBytes) {
    if (capacityBytes <= 0) {
      throw new IllegalArgumentException("memory budget must be positive: " + capacityBytes);
    }
    this.capacity = capacityBytes;
  }

  /** Reserves {@code bytes} if they fit; false (and nothing reserved) otherwise. */
  public boolean tryReserve(long bytes) {
    while (true) {
      long u = used.get();
      if (u + bytes > capacity) {
        return false;
      }
      if (used.compareAndSet(u, u + bytes)) {
        peak.accumulateAndGet(u + bytes, Math::max);
        return true;
      }
    }
  }

  /** Returns reserved bytes. */
  public void release(long bytes) {
    used.addAndGet(-bytes);
  }

  /** Bytes reserved now. */
  public long used() {
    return used.get();
  }

  /** The most bytes ever reserved at once. */
  public long peak() {
    return peak.get();
  }

  /** The budget in bytes. */
  public long capacity() {
    return capacity;
  }

  /**
   * The memory this process may use: the cgroup v2 {@code memory.max} or v1 {@code memory.limit_in_bytes}, else the
   * host's physical memory.
   */
  public static long containerMemoryLimit() {
    for (String f : new String[] {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
      try {
        String v = Files.readString(Path.of(f)).strip();
        if (!v.equals("max")) {
          long n = Long.parseLong(v);
          if (n > 0 && n < (1L << 60)) {
            return n;
          }
        }
      } catch (Exception e) {
        // not in a cgroup with a limit: fall through
      }
    }
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize();
    }
    return 4L << 30;
  }

  /**
   * The engine's budget: a quarter of {@code memory_limit} when given (the process's memory: the launcher gives half of
   * it to the heap and half to direct memory, of which these buffers take half; SEMANTICS.md "Memory"), else
   * {@link #defaultCapacity}; read-ahead never gets more than {@code direct_read_prefetch_limit} of it, and the budget
   * never more than half the JVM's direct memory.
   *
   * @param prefetchLimit {@code direct_read_prefetch_limit} in bytes
   * @param memoryLimit {@code memory_limit} in bytes, or -1 for the default
   */
  public static long capacity(long prefetchLimit, long memoryLimit) {
    long wanted = memoryLimit > 0 ? Math.min(prefetchLimit, memoryLimit / 4) : defaultCapacity(prefetchLimit);
    return Math.min(wanted, maxDirectMemory() / 2);
  }

  /**
   * The default budget: a quarter of the memory limit, at most {@code cap} bytes and at least 64 MiB, so the heap,
   * the JVM and the page cache keep the rest of a pod's limit.
   */
  public static long defaultCapacity(long cap) {
    return Math.max(64L << 20, Math.min(cap, containerMemoryLimit() / 4));
  }

  /**
   * The JVM's limit on direct buffers: {@code -XX:MaxDirectMemorySize} when given, else the JVM's default, the maximum
   * heap size. The budget takes at most half of it (FUSE and NIO buffers need the rest): a budget above it would make
   * read-ahead fail with OutOfMemoryError in a heap-capped container instead of falling back to plain GETs.
   */
  public static long maxDirectMemory() {
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
        long v = parseSize(arg.substring("-XX:MaxDirectMemorySize=".length()));
        if (v > 0) {
          return v;
        }
      }
    }
    return Runtime.getRuntime().maxMemory();
  }

  /** HotSpot size syntax: digits with an optional k/m/g/t suffix (either case); -1 when malformed. */
  static long parseSize(String v) {
    if (v.isEmpty()) {
      return -1;
    }
    char u = Character.toLowerCase(v.charAt(v.length() - 1));
    int shift = switch (u) {
      case 'k' -> 10;
      case 'm' -> 20;
      case 'g' -> 30;
      case 't' -> 40;
      default -> 0;
    };
    try {
      return Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1)) << shift;
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
