package io.ossgw.fuse;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-operation counters of one mount: how many callbacks libfuse made into the adapter, how many of them returned an
 * error, how many failed unexpectedly (a non-{@code FsException} turned into EIO), and the bytes moved by READ/WRITE.
 * Counters are {@link LongAdder}s, so updating them from many FUSE threads does not contend; reading is a sum and only
 * approximately consistent while requests are in flight.
 */
public final class FuseStats {
  private static final FuseOp[] OPS = FuseOp.values();

  private final LongAdder[] calls = new LongAdder[OPS.length];
  private final LongAdder[] errors = new LongAdder[OPS.length];
  private final LongAdder unexpected = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder bytesWritten = new LongAdder();
  private final LongAdder namesInvalidated = new LongAdder();
  private final LongAdder namesNotTracked = new LongAdder();
  private volatile FuseConnection connection;

  /** Creates zeroed counters. */
  public FuseStats() {
    for (int i = 0; i < OPS.length; i++) {
      calls[i] = new LongAdder();
      errors[i] = new LongAdder();
    }
  }

  void call(FuseOp op) {
    calls[op.ordinal()].increment();
  }

  void error(FuseOp op) {
    errors[op.ordinal()].increment();
  }

  void unexpected() {
    unexpected.increment();
  }

  void read(int bytes) {
    bytesRead.add(bytes);
  }

  void written(int bytes) {
    bytesWritten.add(bytes);
  }

  void connection(FuseConnection c) {
    connection = c;
  }

  /** Callbacks of {@code op} so far. */
  public long count(FuseOp op) {
    return calls[op.ordinal()].sum();
  }

  /** Callbacks of {@code op} that returned a negative errno. */
  public long errors(FuseOp op) {
    return errors[op.ordinal()].sum();
  }

  /** Callbacks of all operations. */
  public long total() {
    long t = 0;
    for (LongAdder a : calls) {
      t += a.sum();
    }
    return t;
  }

  /** Callbacks that failed with something other than an {@code FsException} and were answered with EIO. */
  public long unexpectedErrors() {
    return unexpected.sum();
  }

  /** Bytes returned by READ callbacks. */
  public long bytesRead() {
    return bytesRead.sum();
  }

  /** Bytes accepted by WRITE callbacks. */
  public long bytesWritten() {
    return bytesWritten.sum();
  }

  /**
   * Counts names whose kernel dentry the binding dropped ({@code fuse_lowlevel_notify_inval_entry}) to bound what the
   * kernel, and so libfuse's node table, holds of long listings (jfuse's {@code ListedNames}).
   *
   * @param n names the kernel dropped (an {@code ENOENT} answer, no dentry left to drop, is not counted)
   */
  public void namesInvalidated(int n) {
    namesInvalidated.add(n);
  }

  /**
   * Counts listed names the binding could not remember for invalidation because its bounded queue was full (the
   * invalidations had fallen behind the listing): the kernel keeps those until its own reclaim.
   *
   * @param n names not remembered
   */
  public void namesNotTracked(int n) {
    namesNotTracked.add(n);
  }

  /** Listed names left to the kernel's own reclaim (see {@link #namesNotTracked(int)}). */
  public long namesNotTracked() {
    return namesNotTracked.sum();
  }

  /** Names the kernel dropped at the binding's request after listing them (see {@link #namesInvalidated(int)}). */
  public long namesInvalidated() {
    return namesInvalidated.sum();
  }

  /** The INIT negotiation result, or null before the kernel's INIT request was answered. */
  public FuseConnection connection() {
    return connection;
  }

  /** A copy of the per-operation call counts, only operations with at least one call. */
  public Map<FuseOp, Long> snapshot() {
    Map<FuseOp, Long> m = new EnumMap<>(FuseOp.class);
    for (FuseOp op : OPS) {
      long n = count(op);
      if (n != 0) {
        m.put(op, n);
      }
    }
    return m;
  }

  @Override
  public String toString() {
    return "FuseStats" + snapshot() + " total=" + total() + " unexpected=" + unexpectedErrors();
  }
}
