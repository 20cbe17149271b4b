package io.ossgw.core.util;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for a future and rethrows its failure unwrapped (store and VFS exceptions keep their kind). */
public final class Await {
  private Await() {}

  public static <T> T result(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsException(Errno.EIO, "interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new FsException(Errno.EIO, String.valueOf(e.getCause()), e.getCause());
    }
  }
}
