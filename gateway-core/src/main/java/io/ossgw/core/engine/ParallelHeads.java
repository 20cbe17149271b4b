package io.ossgw.core.engine;

import io.ossgw.core.meta.Node;
import io.ossgw.core.namespace.VPaths;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Completes a listing's nodes whose metadata is unknown with HEAD requests, at most {@code multireq_max} at once (ossfs's
 * {@code readdir_multi_head}), so the kernel's LOOKUP after a readdir is answered from the cache. Entries that vanished
 * between the LIST and the HEAD are dropped.
 */
final class ParallelHeads {
  private final ExecutorService executor;
  private final int parallel;

  ParallelHeads(ExecutorService executor, int parallel) {
    this.executor = executor;
    this.parallel = Math.max(1, parallel);
  }

  void completeAll(String dirPath, Map<String, Node> children, Namespace ns) {
    List<String> names = new ArrayList<>();
    children.forEach((name, node) -> {
      if (!node.metaKnown()) {
        names.add(name);
      }
    });
    if (names.isEmpty()) {
      return;
    }
    Semaphore slots = new Semaphore(parallel);
    List<Future<Node>> futures = new ArrayList<>(names.size());
    for (String name : names) {
      Node listed = children.get(name);
      futures.add(executor.submit(() -> {
        slots.acquire();
        try {
          return ns.complete(VPaths.child(dirPath, name), listed);
        } finally {
          slots.release();
        }
      }));
    }
    for (int i = 0; i < names.size(); i++) {
      try {
        children.put(names.get(i), futures.get(i).get());
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof FsException fe && fe.errno() == Errno.ENOENT) {
          children.remove(names.get(i));
        } else if (e.getCause() instanceof RuntimeException re) {
          throw re;
        } else {
          throw new FsException(Errno.EIO, dirPath + ": " + e.getCause(), e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FsException(Errno.EIO, "interrupted listing " + dirPath, e);
      }
    }
  }
}
