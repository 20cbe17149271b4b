package io.ossgw.core.vfs;

import java.util.function.ObjLongConsumer;

/**
 * What a directory rename moves, for a decorator that keeps numbers by path ({@code io.ossgw.core.inode.InodeNumbers}):
 * bound around a {@link VirtualFileSystem#rename} call, the engine reports each name below the renamed directory that
 * it moved, by its path before the rename and the number the bare engine gave it there (a hash of its old object key).
 * The decorator records the numbers its listings showed without recording them under those old paths, and its table
 * then moves them with the rest, so they follow the rename at no request: the rename lists and copies every object
 * anyway. Names are reported on the calling thread, one listing page at a time as the rename moves it, so the caller
 * need not hold them all.
 */
public final class MovedNames {
  private static final ScopedValue<ObjLongConsumer<String>> SINK = ScopedValue.newInstance();

  private MovedNames() {}

  /** Runs {@code rename} with {@code sink} receiving (path before the rename, number) for each name it moved. */
  public static void collecting(ObjLongConsumer<String> sink, Runnable rename) {
    ScopedValue.where(SINK, sink).run(rename);
  }

  /** Reports one moved name to the caller that bound a sink; nothing otherwise. */
  public static void report(String oldPath, long number) {
    if (SINK.isBound()) {
      SINK.get().accept(oldPath, number);
    }
  }

  /** True when a caller collects moved names (so the engine computes them only then). */
  public static boolean wanted() {
    return SINK.isBound();
  }
}
