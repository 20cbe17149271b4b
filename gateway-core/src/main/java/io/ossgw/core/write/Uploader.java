package io.ossgw.core.write;

import io.ossgw.core.util.Await;

import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Uploads a complete {@link StagedFile}: one PutObject below {@code multipart_size} (or always with
 * {@code nomultipart}), otherwise a multipart upload with up to {@code parallel_count} parts in flight
 * (reference/ossfs-compat.md §3.6). A failed multipart upload is aborted, so no orphan parts are billed.
 */
public final class Uploader {
  private final ObjectStore store;
  private final ExecutorService executor;
  private final long multipartSize;
  private final int parallelCount;
  private final boolean noMultipart;
  private final long copyPartSize;

  /**
   * @param multipartSize {@code multipart_size} in bytes
   * @param copyPartSize {@code multipart_copy_size} in bytes: the largest UploadPartCopy part
   */
  public Uploader(ObjectStore store, ExecutorService executor, long multipartSize, int parallelCount, boolean noMultipart,
      long copyPartSize) {
    this.store = store;
    this.executor = executor;
    this.multipartSize = multipartSize;
    this.parallelCount = parallelCount;
    this.noMultipart = noMultipart;
    this.copyPartSize = copyPartSize;
  }

  public long multipartSize() {
    return multipartSize;
  }

  /**
   * Uploads all {@code file.size()} bytes (the caller has made every byte valid).
   *
   * @throws FsException EFBIG over 5 GB with nomultipart; EIO when OSS refuses after retries
   */
  public WriteResult upload(String key, StagedFile file, WriteMeta meta) {
    long size = file.size();
    file.materializeSize();
    if (noMultipart || size < multipartSize) {
      if (size > PartPlan.MAX_PART) {
        throw new FsException(Errno.EFBIG, "nomultipart: a single PutObject holds at most 5 GB");
      }
      return store.putObject(key, file.content(0, size), meta);
    }
    long partSize = PartPlan.fixedPartSize(multipartSize, size);
    String uploadId = store.initiateMultipartUpload(key, meta);
    try {
      List<PartETag> parts = uploadParts(key, uploadId, file, 0, size, 1, partSize);
      return store.completeMultipartUpload(key, uploadId, parts);
    } catch (RuntimeException e) {
      abortQuietly(key, uploadId);
      throw e;
    }
  }

  /**
   * Uploads a file whose first {@code prefix} bytes are unchanged bytes of the object already at {@code key} (an
   * append, or the next upload after a {@code max_dirty_data} flush): one multipart upload whose first parts are
   * UploadPartCopy of {@code [0, prefix)} of the current object (parts of at most {@code multipart_copy_size}), followed
   * by UploadPart of {@code [prefix, size)} from the spool; {@code parallel_count} parts in flight. This is ossfs's
   * "mix multipart" upload (reference/ossfs-compat.md §3.6). The caller has made {@code [prefix, size)} valid and
   * checked {@code prefix >= 100 KB} (OSS's smallest non-last part); the source must not be an Appendable object.
   *
   * @param etag the ETag of the object the prefix was read from: the copies fail rather than take another version's
   *     bytes ({@code x-oss-copy-source-if-match}); null to copy whatever is there
   * @throws io.ossgw.core.store.StoreException when OSS refuses, PRECONDITION_FAILED when the object changed (the
   *     upload is aborted)
   */
  public WriteResult uploadKeepingPrefix(String key, String etag, StagedFile file, long prefix, WriteMeta meta) {
    long size = file.size();
    file.materializeSize();
    int copyParts = (int) Math.max(1, (prefix + copyPartSize - 1) / copyPartSize);
    long copyPart = (prefix + copyParts - 1) / copyParts; // even parts: none of them is tiny
    long tailPart = PartPlan.fixedPartSize(multipartSize, Math.max(0, size - prefix));
    String uploadId = store.initiateMultipartUpload(key, meta);
    Semaphore slots = new Semaphore(parallelCount);
    List<Future<PartETag>> copies = new ArrayList<>();
    try {
      int n = 1;
      for (long off = 0; off < prefix; off += copyPart, n++) {
        long len = Math.min(copyPart, prefix - off);
        int part = n;
        long start = off;
        slots.acquire();
        copies.add(executor.submit(() -> {
          try {
            return store.uploadPartCopy(key, etag, start, len, key, uploadId, part);
          } finally {
            slots.release();
          }
        }));
      }
      List<PartETag> parts = new ArrayList<>();
      List<PartETag> tail = uploadParts(key, uploadId, file, prefix, size, n, tailPart);
      for (Future<PartETag> f : copies) {
        parts.add(Await.result(f));
      }
      parts.addAll(tail);
      return store.completeMultipartUpload(key, uploadId, parts);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      copies.forEach(f -> f.cancel(true));
      abortQuietly(key, uploadId);
      throw new FsException(Errno.EIO, "interrupted while uploading " + key, e);
    } catch (RuntimeException e) {
      copies.forEach(f -> f.cancel(true));
      abortQuietly(key, uploadId);
      throw e;
    }
  }

  /** Uploads {@code [from, to)} of the spool as parts numbered from {@code firstPart}, in parallel; waits for all. */
  List<PartETag> uploadParts(String key, String uploadId, StagedFile file, long from, long to, int firstPart, long partSize) {
    Semaphore slots = new Semaphore(parallelCount);
    List<Future<PartETag>> futures = new ArrayList<>();
    int n = firstPart;
    try {
      for (long off = from; off < to; off += partSize, n++) {
        long len = Math.min(partSize, to - off);
        final int part = n;
        final long start = off;
        slots.acquire();
        futures.add(executor.submit(() -> {
          try {
            return store.uploadPart(key, uploadId, part, file.content(start, len));
          } finally {
            slots.release();
          }
        }));
      }
      List<PartETag> out = new ArrayList<>(futures.size());
      for (Future<PartETag> f : futures) {
        out.add(Await.result(f));
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      futures.forEach(f -> f.cancel(true));
      throw new FsException(Errno.EIO, "interrupted while uploading " + key, e);
    } catch (RuntimeException e) {
      futures.forEach(f -> f.cancel(true));
      throw e;
    }
  }

  void abortQuietly(String key, String uploadId) {
    try {
      store.abortMultipartUpload(key, uploadId);
    } catch (RuntimeException ignored) {
      // the original error matters more; OSS lifecycle rules clean up orphans
    }
  }
}
