package io.ossgw.core.write;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.util.Crc64;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CRC-64 (ECMA-182, OSS's {@code x-oss-hash-crc64ecma}) of each streamed part of a new file, computed from each
 * write's bytes as the write arrives (the front end's request buffer, still in the CPU's cache) instead of by reading
 * the part back from the spool at upload time. With the CRC known, the lean client sends the part from the spool with
 * sendfile(2): no {@code pread} copy into user space, no copy into the socket, no second pass over the bytes
 * (docs/benchmarks.md "FUSE sequential write (issue 22 item 4)").
 *
 * <p>Writes may come in any order (an NFS client keeps 16 or more WRITEs in flight and they arrive shuffled within
 * that window): it keeps the disjoint byte ranges it saw written, each with its CRC, cut at the part boundaries of
 * {@link PartPlan#streamingPartSize} (as {@link StreamingUpload} cuts them). A write that continues a range goes on
 * from the range's CRC (in-order writes cost what a running CRC costs); a range that follows it is joined with {@link
 * Crc64#combine}; a part covered whole is one range with the part's CRC. A range is forgotten when a later
 * write overlaps it (the new write's bytes are then tracked in its place), when a truncate drops any of its bytes, or
 * when a write fails ({@link #onWriteFailed}). So a CRC given here is always that of the bytes the staging holds for
 * the range, provided it is told of every change to those bytes from its creation on: the owner creates it with a
 * fresh staging and calls it under the file's lock, as each write and truncate happens and before parts are started.
 * Not thread-safe.
 *
 * <p>Memory: about 100 bytes per tracked range. Ranges that are not whole parts are capped at {@link #MAX_PENDING}
 * (a write order scattering more than that stops the tracking for good; parts then go out as before, read back and
 * CRC'd at upload time); whole parts count at most one range each, and only the first {@link EngineConfig#MAX_PARTS}
 * parts are tracked.
 */
public final class PartCrcs {
  /** Most ranges short of a whole part kept at once; more stop the tracking. */
  public static final int MAX_PENDING = 1024;
  private final long multipartSize;
  /** Tracked ranges by start offset: {end, crc, 1 if a whole part else 0}; none crosses a part boundary. */
  private final TreeMap<Long, long[]> ranges = new TreeMap<>();
  private int pending;
  private boolean stopped;

  /** @param multipartSize {@code multipart_size} in bytes, as given to the stream */
  public PartCrcs(long multipartSize) {
    this.multipartSize = multipartSize;
  }

  /**
   * Takes the bytes of a write that succeeded at {@code offset} ({@code written}'s position to limit, left unchanged):
   * tracked ranges it overlaps are forgotten, its own bytes are tracked.
   */
  public void onWrite(long offset, ByteBuffer written) {
    if (stopped || !written.hasRemaining()) {
      return;
    }
    forget(offset, offset + written.remaining());
    long[] part = PartPlan.streamingPartAt(multipartSize, offset);
    ByteBuffer b = written.duplicate();
    long pos = offset;
    while (b.hasRemaining() && part[0] <= EngineConfig.MAX_PARTS) {
      int n = (int) Math.min(b.remaining(), part[2] - pos);
      ByteBuffer slice = b.duplicate();
      slice.limit(slice.position() + n);
      add(pos, slice, part[1], part[2]);
      b.position(b.position() + n);
      pos += n;
      if (pos == part[2]) {
        long number = part[0] + 1;
        part = new long[] {number, pos, pos + PartPlan.streamingPartSize(multipartSize, (int) number)};
      }
    }
    if (pending > MAX_PENDING) {
      stop();
    }
  }

  /**
   * A write at {@code [offset, offset+length)} failed: the staging may hold part of its bytes, so ranges there are
   * forgotten.
   */
  public void onWriteFailed(long offset, long length) {
    forget(offset, offset + length);
  }

  /** The file's size is about to become {@code size}: ranges holding bytes at or past it are forgotten. */
  public void onTruncate(long size) {
    forget(size, Long.MAX_VALUE);
  }

  /**
   * The CRC-64 of the bytes {@code [start, start+length)} when exactly that range is tracked (a whole part, written in
   * any order); else null (the caller computes it from the bytes it sends).
   */
  public Long crcOf(long start, long length) {
    long[] r = stopped ? null : ranges.get(start);
    return r != null && r[0] == start + length ? r[1] : null;
  }

  /** Tracked ranges short of a whole part (for tests of the bound). */
  int pending() {
    return pending;
  }

  /**
   * Tracks the bytes {@code piece} (position to limit) at {@code start} in the part {@code [partStart, partEnd)},
   * merging them with neighbours of that part.
   */
  private void add(long start, ByteBuffer piece, long partStart, long partEnd) {
    long end = start + piece.remaining();
    long crc = 0;
    if (start > partStart) {
      Map.Entry<Long, long[]> prev = ranges.lowerEntry(start);
      if (prev != null && prev.getValue()[0] == start) {
        crc = prev.getValue()[1]; // the piece goes on from there: its CRC continues the range's (in-order writes)
        start = prev.getKey();
        remove(start);
      }
    }
    crc = Crc64.update(crc, piece);
    if (end < partEnd) {
      long[] next = ranges.get(end);
      if (next != null) {
        crc = Crc64.combine(crc, next[1], next[0] - end);
        remove(end);
        end = next[0];
      }
    }
    boolean whole = start == partStart && end == partEnd;
    ranges.put(start, new long[] {end, crc, whole ? 1 : 0});
    if (!whole) {
      pending++;
    }
  }

  /** Forgets every tracked range holding a byte of {@code [from, to)}. */
  private void forget(long from, long to) {
    Map.Entry<Long, long[]> below = ranges.lowerEntry(from);
    if (below != null && below.getValue()[0] > from) {
      remove(below.getKey());
    }
    Iterator<long[]> it = ranges.subMap(from, true, to, false).values().iterator();
    while (it.hasNext()) {
      if (it.next()[2] == 0) {
        pending--;
      }
      it.remove();
    }
  }

  private void remove(long start) {
    if (ranges.remove(start)[2] == 0) {
      pending--;
    }
  }

  private void stop() {
    stopped = true;
    ranges.clear();
    pending = 0;
  }
}
