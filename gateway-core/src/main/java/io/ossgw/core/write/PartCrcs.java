package io.ossgw.core.write;

import io.ossgw.core.util.Crc64;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The CRC-64 (ECMA-182, OSS's {@code x-oss-hash-crc64ecma}) of each streamed part of a file written sequentially from
 * offset 0, computed from each write's bytes as the write arrives (the front end's request buffer, still in the CPU's
 * cache) instead of by reading the part back from the spool at upload time. With the CRC known, the lean client sends
 * the part from the spool with sendfile(2): no {@code pread} copy into user space, no copy into the socket, no
 * second pass over the bytes (docs/benchmarks.md "FUSE sequential write (issue 22 item 4)").
 *
 * <p>It tracks the bytes {@code [0, covered())} only while each was last written by a write it saw, in order: a write
 * that does not start exactly at {@link #covered()} (behind it: a rewrite; past it: a hole) or a truncate below it
 * stops the tracking for good, and parts then go out as before (read back and CRC'd at upload time). So a part's CRC
 * here is always that of the bytes the spool holds for it. Part boundaries follow {@link
 * PartPlan#streamingPartSize}, as {@link StreamingUpload} cuts them. Not thread-safe: the file's lock serialises
 * calls. Memory: 24 bytes per part completed (at most 10,000).
 */
final class PartCrcs {
  private final long multipartSize;
  /** Per part completed: {start, length, crc}. */
  private final List<long[]> done = new ArrayList<>();
  private long covered;
  private long partStart;
  private long partEnd;
  private long crc;
  private boolean stopped;

  /** @param multipartSize {@code multipart_size} in bytes, as given to the stream */
  PartCrcs(long multipartSize) {
    this.multipartSize = multipartSize;
    this.partEnd = PartPlan.streamingPartSize(multipartSize, 1);
  }

  /** Bytes from offset 0 whose CRC is tracked (0 once stopped). */
  long covered() {
    return stopped ? 0 : covered;
  }

  /**
   * Takes the bytes of a write that succeeded at {@code offset} ({@code written}'s position to limit, left unchanged).
   */
  void onWrite(long offset, ByteBuffer written) {
    if (stopped) {
      return;
    }
    if (offset != covered) {
      stop();
      return;
    }
    ByteBuffer b = written.duplicate();
    while (b.hasRemaining()) {
      int n = (int) Math.min(b.remaining(), partEnd - covered);
      ByteBuffer slice = b.duplicate();
      slice.limit(slice.position() + n);
      crc = Crc64.update(crc, slice);
      b.position(b.position() + n);
      covered += n;
      if (covered == partEnd) {
        done.add(new long[] {partStart, partEnd - partStart, crc});
        crc = 0;
        partStart = partEnd;
        partEnd = partStart + PartPlan.streamingPartSize(multipartSize, done.size() + 1);
      }
    }
  }

  /** The file's size became {@code size}: bytes below {@link #covered()} that it drops end the tracking. */
  void onTruncate(long size) {
    if (size < covered) {
      stop();
    }
  }

  /**
   * The CRC-64 of part {@code partNumber} (1-based) when it is {@code [start, start+length)} and every byte of it was
   * tracked; else null (the caller computes it from the bytes it sends).
   */
  Long crcOf(int partNumber, long start, long length) {
    if (stopped || partNumber < 1 || partNumber > done.size()) {
      return null;
    }
    long[] p = done.get(partNumber - 1);
    return p[0] == start && p[1] == length ? p[2] : null;
  }

  private void stop() {
    stopped = true;
    done.clear();
  }
}
