package io.ossgw.nfs.v3;

import java.util.concurrent.atomic.AtomicLongArray;

/** Counters of the NFS program: calls per procedure and WRITEs per stability asked (for metrics and tests). */
public final class Nfs3Stats {
  private final AtomicLongArray calls = new AtomicLongArray(22);
  private final AtomicLongArray writes = new AtomicLongArray(3);

  void call(int proc) {
    calls.incrementAndGet(proc);
  }

  void write(int stable) {
    writes.incrementAndGet(stable);
  }

  /** Calls of a procedure (RFC 1813 number, 0..21) since start. */
  public long calls(int proc) {
    return calls.get(proc);
  }

  /** WRITE calls asking for {@code stable} (UNSTABLE 0, DATA_SYNC 1, FILE_SYNC 2). */
  public long writes(int stable) {
    return writes.get(stable);
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("calls=").append(calls).append(" writes=").append(writes);
    return b.toString();
  }
}
