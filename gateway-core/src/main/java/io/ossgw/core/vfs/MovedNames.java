package io.ossgw.core.vfs;

import java.util.function.ObjLongConsumer;

/**
 * What a directory rename moved, for a decorator that keeps numbers by path ({@code io.ossgw.core.inode.InodeNumbers}):
 * bound around a {@link VirtualFileSystem#rename} call, the engine reports each name below the renamed directory at
 * its new path with the number the bare engine gave it under its old object key (a hash of the key). The decorator
 * then records the numbers its listings showed without recording them, so they follow the rename, at no request: the
 * rename lists and copies every object anyway. Names are reported on the calling thread, after the copies.
 */
public final class MovedNames {
  private static final ScopedValue<ObjLongConsumer<String>> SINK = ScopedValue.newInstance();

  private MovedNames() {}

  /** Runs {@code rename} with {@code sink} receiving (new path, former number) for each name it moved. */
  public static void collecting(ObjLongConsumer<String> sink, Runnable rename) {
    ScopedValue.where(SINK, sink).run(rename);
  }

  /** Reports one moved name to the caller that bound a sink; nothing otherwise. */
  public static void report(String newPath, long formerNumber) {
    if (SINK.isBound()) {
      SINK.get().accept(newPath, formerNumber);
    }
  }

  /** True when a caller collects moved names (so the engine computes them only then). */
  public static boolean wanted() {
    return SINK.isBound();
  }
}
