package io.ossgw.fuse;

import io.ossgw.core.vfs.FileHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Maps FUSE file handles ({@code fuse_file_info.fh}, a 64-bit number the kernel hands back on every request for an
 * open file) to the VFS's {@link FileHandle}s.
 *
 * <p>An fh is {@code generation << 32 | (slot + 1)}: slots are reused after release, and the generation makes a stale
 * fh (one already released) miss instead of reaching the file now in its slot. fh 0 is never issued.
 *
 * <p>{@link #get} runs on every READ and WRITE, so it takes no lock and allocates nothing; {@link #add} and {@link
 * #remove} (OPEN/CREATE/RELEASE) take a lock.
 */
final class OpenFileTable {
  private record Slot(FileHandle handle, int generation) {}

  private volatile AtomicReferenceArray<Slot> slots = new AtomicReferenceArray<>(64);
  private int[] free = new int[64];
  private int freeCount;
  private int used; // slots [0, used) have been handed out at least once
  private int generation;
  private int open;

  /** Stores an open handle and returns its fh (never 0). */
  synchronized long add(FileHandle handle) {
    int slot;
    if (freeCount > 0) {
      slot = free[--freeCount];
    } else {
      if (used == slots.length()) {
        AtomicReferenceArray<Slot> bigger = new AtomicReferenceArray<>(used * 2);
        for (int i = 0; i < used; i++) {
          bigger.set(i, slots.get(i));
        }
        slots = bigger;
      }
      slot = used++;
    }
    int gen = ++generation;
    slots.set(slot, new Slot(handle, gen));
    open++;
    return ((long) gen << 32) | (slot + 1L);
  }

  /** The handle for {@code fh}, or null if it is not (or no longer) open. */
  FileHandle get(long fh) {
    int slot = (int) fh - 1;
    AtomicReferenceArray<Slot> a = slots;
    if (slot < 0 || slot >= a.length()) {
      return null;
    }
    Slot s = a.get(slot);
    return s != null && s.generation == (int) (fh >>> 32) ? s.handle : null;
  }

  /** Removes and returns the handle for {@code fh}, or null if it was not open. */
  synchronized FileHandle remove(long fh) {
    FileHandle h = get(fh);
    if (h == null) {
      return null;
    }
    int slot = (int) fh - 1;
    slots.set(slot, null);
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, free.length * 2);
    }
    free[freeCount++] = slot;
    open--;
    return h;
  }

  /**
   * The open handles whose {@link FileHandle#path()} is {@code path}, newest first. Scans the table: only for the rare
   * rename of an open file onto a libfuse hidden name.
   */
  synchronized List<FileHandle> openUnder(String path) {
    List<Slot> found = new ArrayList<>();
    AtomicReferenceArray<Slot> a = slots;
    for (int i = 0; i < used; i++) {
      Slot s = a.get(i);
      if (s != null && path.equals(s.handle.path())) {
        found.add(s);
      }
    }
    found.sort((x, y) -> Integer.compare(y.generation, x.generation));
    List<FileHandle> out = new ArrayList<>(found.size());
    found.forEach(s -> out.add(s.handle));
    return out;
  }

  /** Number of open handles. */
  synchronized int size() {
    return open;
  }

  /** Removes and returns every open handle (when the session ends without RELEASEs). */
  synchronized List<FileHandle> drain() {
    List<FileHandle> out = new ArrayList<>();
    AtomicReferenceArray<Slot> a = slots;
    for (int i = 0; i < used; i++) {
      Slot s = a.getAndSet(i, null);
      if (s != null) {
        out.add(s.handle);
      }
    }
    freeCount = 0;
    used = 0;
    open = 0;
    return out;
  }
}
