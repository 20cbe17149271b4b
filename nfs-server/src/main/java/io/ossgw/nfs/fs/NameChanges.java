package io.ossgw.nfs.fs;

import io.ossgw.core.namespace.VPaths;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Renames in progress, shared by NFSv3 and NFSv4.1, so that a request whose handle resolved to a name a concurrent
 * RENAME is moving waits for that rename instead of finding the object under neither name.
 *
 * <p>Why: a RENAME changes three things one after the other, the object in the engine, its fileid's path in the
 * handle table and the open files; a handle resolved between the first and the last names the old path, which is
 * gone. The Linux client makes that race on every unlink of an open file: it starts the write-back of the file's
 * dirty pages and sends the silly rename (to {@code .nfsXXXX}) at once, so without this the WRITE could find the file
 * missing and answer STALE, which the client reports at close(2) and the written bytes are lost.
 *
 * <p>How: a RENAME runs its three changes holding the stripe of its source path ({@link #renaming}). A request that
 * finds its handle's path missing calls {@link #settle} for that path, which waits for a rename of the path or of any
 * directory above it, then resolves the handle again; only a handle that still names a missing object is stale. The
 * cost falls on that error path alone: requests that find their object never lock. Stripes are locked one at a time
 * and a rename holds one, so no lock order can deadlock. Thread-safe.
 */
public final class NameChanges {
  private static final int STRIPES = 64;

  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

  public NameChanges() {
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /**
   * Runs {@code change} (the engine's rename and the table and open-file updates that follow it) while requests that
   * find {@code from} of export {@code exportId} missing wait in {@link #settle}.
   *
   * @return what {@code change} returns; its exceptions pass through
   */
  public <T> T renaming(int exportId, String from, Supplier<T> change) {
    ReentrantLock l = stripe(exportId, from);
    l.lock();
    try {
      return change.get();
    } finally {
      l.unlock();
    }
  }

  /**
   * Waits until no rename of {@code path}, or of a directory above it, that started before this call is still
   * running: afterwards the handle table names where such a rename moved the object.
   */
  public void settle(int exportId, String path) {
    for (String p = path; ; p = VPaths.parent(p)) {
      ReentrantLock l = stripe(exportId, p);
      l.lock();
      l.unlock();
      if (VPaths.isRoot(p)) {
        return;
      }
    }
  }

  private ReentrantLock stripe(int exportId, String path) {
    int h = 31 * exportId + path.hashCode();
    return stripes[(h ^ (h >>> 16)) & (STRIPES - 1)];
  }
}
