package io.ossgw.core.memory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.h2.mvstore.MVStore;

/**
 * Opens the engine's H2 MVStore files (inode tables, the metadata store) with their heap bounded (issue 21 item 4): a
 * page cache of {@link #cacheMb()} MB and unsaved changes written out once they take {@value #AUTO_COMMIT_KB} KB of
 * heap (MVStore's own default scales with the heap up to 19 MB per store, and a listing of a million new names keeps
 * several stores writing at once). The files grow with what they hold (about 56 bytes a name in an inode table), the
 * heap does not.
 */
public final class MvStores {
  /** Heap of unsaved changes after which MVStore commits (its {@code autoCommitBufferSize}, KB). */
  public static final int AUTO_COMMIT_KB = 1024;

  private MvStores() {}

  /**
   * The page cache of one store: a sixty-fourth of the heap, between 2 and 16 MB ({@code -Dio.ossgw.mvstore.cache_mb=N}
   * sets it, for measurements).
   */
  public static int cacheMb() {
    Integer forced = Integer.getInteger("io.ossgw.mvstore.cache_mb");
    if (forced != null) {
      return Math.max(1, forced);
    }
    long heapMb = Runtime.getRuntime().maxMemory() >> 20;
    return (int) Math.max(2, Math.min(16, heapMb / 64));
  }

  /**
   * Opens (or creates) a store file with a page cache of {@code cacheMb} MB.
   *
   * @throws RuntimeException MVStore's, when the file is locked by another process or unreadable
   */
  public static MVStore open(Path file, int cacheMb) {
    return new MVStore.Builder().fileName(file.toString()).cacheSize(cacheMb).autoCommitBufferSize(AUTO_COMMIT_KB).open();
  }

  /**
   * A store on a new temporary file that {@code deleteOnClose} removes: what lived only in the heap before (an inode
   * table without a state directory) stays as short-lived, but on disk, so a million names do not fill the heap.
   */
  public static MVStore openTemporary(String prefix) {
    try {
      Path f = Files.createTempFile(prefix, ".mv");
      Files.delete(f); // MVStore creates it; the name is ours alone
      f.toFile().deleteOnExit();
      return open(f, cacheMb());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
