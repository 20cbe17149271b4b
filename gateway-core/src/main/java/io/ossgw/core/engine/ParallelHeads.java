package io.ossgw.core.engine;

import io.ossgw.core.meta.Node;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Completes a listing page's nodes whose metadata is unknown with HEAD requests, at most {@code multireq_max} at once
 * (ossfs's {@code readdir_multi_head}), so the kernel's LOOKUP after a readdir is answered from the cache. Entries that
 * vanished between the LIST and the HEAD are dropped.
 *
 * <p>Bounded: a task is submitted only once one of the {@code multireq_max} slots is free, so a page holds at most that
 * many requests (and virtual threads) in flight, and a listing is completed one ListObjectsV2 page (at most 1,000
 * entries) at a time. Submitting every HEAD of a 100,000-entry directory at once, each task then waiting for a slot,
 * held 100,000 parked virtual threads and their stacks: about 1 GB, the OutOfMemoryError of issue 21.
 */
final class ParallelHeads {
  private final ExecutorService executor;
  private final int parallel;

  ParallelHeads(ExecutorService executor, int parallel) {
    this.executor = executor;
    this.parallel = Math.max(1, parallel);
  }

  /** The engine's I/O executor (virtual threads), which also lists a listing's next page ahead ({@link Lister}). */
  ExecutorService executor() {
    return executor;
  }

  /**
   * Replaces each node of {@code nodes} that {@link Namespace#needsHead} by its completed node, or by null when the
   * object is gone.
   *
   * @param names the entries' names in {@code dirPath}, one per node
   * @throws FsException EIO when a HEAD failed (other than 404)
   */
  void completeAll(String dirPath, String[] names, Node[] nodes, Namespace ns) {
    Semaphore slots = new Semaphore(parallel);
    List<Future<?>> futures = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    try {
      for (int i = 0; i < nodes.length; i++) {
        if (nodes[i] == null || !ns.needsHead(nodes[i])) {
          continue;
        }
        int k = i;
        slots.acquire();
        try {
          futures.add(executor.submit(() -> {
            try {
              nodes[k] = ns.complete(VPaths.child(dirPath, names[k]), nodes[k]);
            } finally {
              slots.release();
            }
            return null;
          }));
        } catch (RuntimeException e) {
          slots.release();
          throw e;
        }
        indexes.add(i);
      }
      RuntimeException failure = null;
      for (int j = 0; j < futures.size(); j++) {
        try {
          futures.get(j).get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof FsException fe && fe.errno() == Errno.ENOENT) {
            nodes[indexes.get(j)] = null;
          } else if (failure == null) {
            failure = e.getCause() instanceof RuntimeException re ? re
                : new FsException(Errno.EIO, dirPath + ": " + e.getCause(), e.getCause());
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      futures.forEach(f -> f.cancel(true));
      throw new FsException(Errno.EIO, "interrupted listing " + dirPath, e);
    }
  }
}
