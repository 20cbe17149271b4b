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

  /** Size of part {@code n} (1-based) of an upload whose total size is not known yet. */
  public static long streamingPartSize(long multipartSize, int n) {
    int doublings = Math.min(9, (n - 1) / 1000);
    return Math.min(MAX_PART, multipartSize << doublings);
  }

  /** Part size for a file of {@code total} bytes: {@code multipart_size}, or larger if 10,000 parts would not hold it. */
  public static long fixedPartSize(long multipartSize, long total) {
    long needed = (total + EngineConfig.MAX_PARTS - 1) / EngineConfig.MAX_PARTS;
    return Math.min(MAX_PART, Math.max(multipartSize, needed));
  }
}
