package io.ossgw.fuse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open directories of a mount and where each one's listing stands, for READDIR in FUSE's offset mode (issue 21):
 * the directory handle an OPENDIR returns ({@code fuse_file_info.fh}) names a cursor that remembers the positions
 * ({@link io.ossgw.core.vfs.DirEntry#position()}) of the entries the last two READDIR calls handed out, so the next call
 * resumes after the entry the kernel stopped at with a paged readdir of the engine. Nothing holds the directory's
 * listing: a cursor holds at most what two kernel buffers (a few kilobytes each) carry.
 *
 * <p>Offsets (what the kernel passes back to continue after an entry): "." is 1, ".." is 2, and the k-th entry of the
 * listing (from 0) is 3 + k. A READDIR at an offset the cursor no longer remembers (a {@code seekdir} back to an old
 * position, or a handle without a cursor) lists from the start and skips that many entries: positional, so entries
 * created or removed before it meanwhile shift it (as for any file system that numbers its entries).
 */
final class OpenDirs {
  /** Offset of the first real entry: the k-th entry has offset {@code FIRST + k}. */
  static final long FIRST = 3;
  /** Entries asked of the engine by a cursor's first READDIR. */
  static final int FIRST_ASK = 32;

  /** One open directory's position. */
  static final class Cursor {
    private long base; // index of positions.get(0)
    private List<String> positions = new ArrayList<>();
    private long prevBase;
    private List<String> prev = List.of();
    private int taken = FIRST_ASK;

    /**
     * Entries to ask the engine for in the next step: as many as the kernel's buffer took last time and two more (a
     * 4 KiB buffer takes about 25 READDIRPLUS entries or 100 READDIR ones), so the engine numbers and copies few
     * entries the buffer then has no room for.
     */
    synchronized int ask() {
      return Math.max(8, Math.min(512, taken + 2));
    }

    /** The last READDIR call put {@code n} entries into the kernel's buffer. */
    synchronized void took(int n) {
      if (n > 0) {
        taken = n;
      }
    }

    /** The position of entry {@code index}, or null when neither of the last two calls handed it out. */
    synchronized String positionOf(long index) {
      if (index >= base && index < base + positions.size()) {
        return positions.get((int) (index - base));
      }
      if (index >= prevBase && index < prevBase + prev.size()) {
        return prev.get((int) (index - prevBase));
      }
      return null;
    }

    /** A READDIR call starts handing out entries from {@code index}. */
    synchronized void startAt(long index) {
      if (index == base + positions.size() || !positions.isEmpty()) {
        prev = positions;
        prevBase = base;
      }
      positions = new ArrayList<>();
      base = index;
    }

    /** Entry {@code base + n} (the next one) was handed out, or skipped, at {@code position}. */
    synchronized void handedOut(String position) {
      positions.add(position);
    }
  }

  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Cursor> open = new ConcurrentHashMap<>();

  /** A new directory handle (never 0). */
  long open() {
    long id = ids.incrementAndGet();
    open.put(id, new Cursor());
    return id;
  }

  /** The cursor of a handle, or a new unregistered one for a handle this mount did not open. */
  Cursor get(long handle) {
    Cursor c = open.get(handle);
    return c != null ? c : new Cursor();
  }

  void release(long handle) {
    open.remove(handle);
  }

  /** Number of open directories. */
  int size() {
    return open.size();
  }
}
