package io.ossgw.core.engine;

import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Server-side copies: CopyObject up to {@code singlepart_copy_limit} (never above OSS's 1 GB CopyObject limit), above
 * it a multipart upload of UploadPartCopy parts of {@code multipart_copy_size}, {@code parallel_count} at once
 * (reference/oss-api.md §2.2; ossfs-compat.md §3.4). The same path rewrites metadata (a copy onto itself).
 */
final class ObjectCopier {
  private final ObjectStore store;
  private final ExecutorService executor;
  private final long singlepartLimit;
  private final long partSize;
  private final int parallel;

  ObjectCopier(ObjectStore store, ExecutorService executor, long singlepartLimit, long partSize, int parallel) {
    this.store = store;
    this.executor = executor;
    this.singlepartLimit = singlepartLimit;
    this.partSize = partSize;
    this.parallel = parallel;
  }

  /**
   * Copies {@code src} (of {@code size} bytes) to {@code dst}.
   *
   * @param meta the destination's metadata (REPLACE), or null to keep the source's (only allowed up to the single-copy
   *     limit, because a multipart copy always needs it)
   */
  WriteResult copy(String src, String dst, long size, WriteMeta meta) {
    if (size <= singlepartLimit) {
      return store.copyObject(src, dst, meta);
    }
    if (meta == null) {
      throw new IllegalArgumentException("a multipart copy needs the destination metadata");
    }
    String uploadId = store.initiateMultipartUpload(dst, meta);
    Semaphore slots = new Semaphore(parallel);
    List<Future<PartETag>> futures = new ArrayList<>();
    try {
      int n = 1;
      for (long off = 0; off < size; off += partSize, n++) {
        long len = Math.min(partSize, size - off);
        int part = n;
        long start = off;
        slots.acquire();
        futures.add(executor.submit(() -> {
          try {
            return store.uploadPartCopy(src, start, len, dst, uploadId, part);
          } finally {
            slots.release();
          }
        }));
      }
      List<PartETag> parts = new ArrayList<>();
      for (Future<PartETag> f : futures) {
        parts.add(io.ossgw.core.util.Await.result(f));
      }
      return store.completeMultipartUpload(dst, uploadId, parts);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abort(dst, uploadId, futures);
      throw new IllegalStateException("interrupted while copying " + src, e);
    } catch (RuntimeException e) {
      abort(dst, uploadId, futures);
      throw e;
    }
  }

  private void abort(String dst, String uploadId, List<Future<PartETag>> futures) {
    futures.forEach(f -> f.cancel(true));
    try {
      store.abortMultipartUpload(dst, uploadId);
    } catch (RuntimeException ignored) {
      // the copy error is what the caller reports
    }
  }
}
