package io.ossgw.core.write;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of byte offsets kept as disjoint, non-touching half-open ranges {@code [start, end)}. Not thread-safe.
 */
public final class RangeSet {
  private final TreeMap<Long, Long> ranges = new TreeMap<>();

  /** Adds {@code [start, end)}, merging with neighbours it overlaps or touches. */
  public void add(long start, long end) {
    if (end <= start) {
      return;
    }
    Map.Entry<Long, Long> before = ranges.floorEntry(start);
    if (before != null && before.getValue() >= start) {
      start = before.getKey();
      end = Math.max(end, before.getValue());
      ranges.remove(before.getKey());
    }
    while (true) {
      Map.Entry<Long, Long> next = ranges.ceilingEntry(start);
      if (next == null || next.getKey() > end) {
        break;
      }
      end = Math.max(end, next.getValue());
      ranges.remove(next.getKey());
    }
    ranges.put(start, end);
  }

  /** Removes everything at or after {@code size}. */
  public void truncate(long size) {
    ranges.tailMap(size, true).clear();
    Map.Entry<Long, Long> last = ranges.lowerEntry(size);
    if (last != null && last.getValue() > size) {
      ranges.put(last.getKey(), size);
    }
  }

  /** True if every offset of {@code [start, end)} is in the set. */
  public boolean covers(long start, long end) {
    if (end <= start) {
      return true;
    }
    Map.Entry<Long, Long> e = ranges.floorEntry(start);
    return e != null && e.getValue() >= end;
  }

  /** The sub-ranges of {@code [start, end)} not in the set, in order, as {@code long[]{from, to}}. */
  public List<long[]> gaps(long start, long end) {
    List<long[]> out = new ArrayList<>();
    long pos = start;
    Map.Entry<Long, Long> e = ranges.floorEntry(start);
    if (e != null && e.getValue() > pos) {
      pos = e.getValue();
    }
    for (Map.Entry<Long, Long> r : ranges.tailMap(start, false).entrySet()) {
      if (pos >= end) {
        break;
      }
      if (r.getKey() > pos) {
        out.add(new long[] {pos, Math.min(r.getKey(), end)});
      }
      pos = Math.max(pos, r.getValue());
    }
    if (pos < end) {
      out.add(new long[] {pos, end});
    }
    return out;
  }

  /** The end of the range that starts at 0, or 0 if 0 is not in the set. */
  public long contiguousFromZero() {
    Long end = ranges.get(0L);
    return end == null ? 0 : end;
  }

  /** The lowest offset in the set, or -1 if empty. */
  public long first() {
    return ranges.isEmpty() ? -1 : ranges.firstKey();
  }

  /** True if some offset in {@code [start, end)} is in the set. */
  public boolean intersects(long start, long end) {
    Map.Entry<Long, Long> e = ranges.lowerEntry(end);
    return e != null && e.getValue() > start;
  }

  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  public void clear() {
    ranges.clear();
  }

  /** Total bytes in the set. */
  public long bytes() {
    long n = 0;
    for (Map.Entry<Long, Long> e : ranges.entrySet()) {
      n += e.getValue() - e.getKey();
    }
    return n;
  }

  /** The ranges in order, as {@code long[]{start, end}} (a copy). */
  public List<long[]> ranges() {
    List<long[]> out = new ArrayList<>(ranges.size());
    ranges.forEach((k, v) -> out.add(new long[] {k, v}));
    return out;
  }

  @Override
  public String toString() {
    return ranges.toString();
  }
}
