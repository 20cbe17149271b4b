package io.ossgw.core.write;

import io.ossgw.core.config.EngineConfig;

/**
 * Part sizes for multipart uploads. OSS allows 10,000 parts; with a fixed {@code multipart_size} that caps a file at
 * 10,000 x part size (97.6 GiB for ossfs's 10 MB, its users' complaint #5). When the final size is unknown (a file
 * streamed while written), the part size doubles every 1,000 parts instead, which reaches about 10 TB with 10 MB
 * parts; when it is known, parts are {@code multipart_size} unless the file needs bigger ones to fit 10,000.
 */
public final class PartPlan {
  /** Largest part OSS accepts: 5 GB. */
  public static final long MAX_PART = 5L * 1024 * 1024 * 1024;

  private PartPlan() {}

  /** Parts of one size in a streamed upload before the size doubles. */
  private static final int PARTS_PER_SIZE = 1000;
  /** Doublings of a streamed upload's part size at most (then {@link #MAX_PART} or the 10,000th part ends it). */
  private static final int MAX_DOUBLINGS = 9;

  /** Size of part {@code n} (1-based) of an upload whose total size is not known yet. */
  public static long streamingPartSize(long multipartSize, int n) {
    int doublings = Math.min(MAX_DOUBLINGS, (n - 1) / PARTS_PER_SIZE);
    return Math.min(MAX_PART, multipartSize << doublings);
  }

  /**
   * The part of a streamed upload ({@link #streamingPartSize}) holding byte {@code offset}: {number (1-based), start,
   * end} in bytes, end exclusive; numbers past 10,000 when the offset lies beyond what such an upload can hold.
   */
  public static long[] streamingPartAt(long multipartSize, long offset) {
    long base = 0;
    for (int group = 0; ; group++) {
      long size = streamingPartSize(multipartSize, group * PARTS_PER_SIZE + 1);
      if (group == MAX_DOUBLINGS || offset < base + PARTS_PER_SIZE * size) {
        long index = (offset - base) / size;
        long start = base + index * size;
        return new long[] {(long) group * PARTS_PER_SIZE + index + 1, start, start + size};
      }
      base += PARTS_PER_SIZE * size;
    }
  }

  /** Part size for a file of {@code total} bytes: {@code multipart_size}, or larger if 10,000 parts would not hold it. */
  public static long fixedPartSize(long multipartSize, long total) {
    long needed = (total + EngineConfig.MAX_PARTS - 1) / EngineConfig.MAX_PARTS;
    return Math.min(MAX_PART, Math.max(multipartSize, needed));
  }
}
