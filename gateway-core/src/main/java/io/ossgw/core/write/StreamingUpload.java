package io.ossgw.core.write;

import io.ossgw.core.util.Await;

import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * A multipart upload that runs while a new (or truncated) file is still being written sequentially: each time the
 * contiguous written bytes pass the end of the next part, that part is uploaded in the background, at most
 * {@code parallel_count} at once (a writer that outruns the network waits here). A close then only uploads the tail
 * and completes, instead of uploading the whole file after the last write.
 *
 * <p>A write below the streamed offset (or a truncate) {@link #invalidate()}s the stream: its upload is aborted and the
 * file is uploaded whole at flush. Metadata is fixed at InitiateMultipartUpload, so the object's x-oss-meta-mtime is
 * the time its upload began. A part whose CRC-64 the owner's {@link PartCrcs} knows goes from the spool without being
 * read back. Not thread-safe: the owning file's lock serialises calls (writes, truncates and part starts alike, so a
 * part's bytes cannot change between its CRC being taken and its upload: a later write into it {@link #conflicts}
 * and the owner invalidates the stream, which waits for the parts in flight, before writing).
 */
public final class StreamingUpload {
  private final ObjectStore store;
  private final ExecutorService executor;
  private final Uploader uploader;
  private final String key;
  private final Supplier<WriteMeta> meta;
  private final long multipartSize;
  private final Semaphore slots;
  private final PartCrcs crcs;
  private final List<Future<PartETag>> parts = new ArrayList<>();
  private String uploadId;
  private WriteMeta initiatedMeta;
  private long streamedUpTo;
  private boolean invalid;

  /**
   * @param meta the metadata of the final object, read when the upload is initiated
   * @param crcs the CRCs of the file's writes, which the owner keeps current (null: none known); a part it knows whole
   *     goes out with its CRC, so with sendfile and no read-back
   */
  public StreamingUpload(ObjectStore store, ExecutorService executor, Uploader uploader, String key,
      Supplier<WriteMeta> meta, long multipartSize, int parallelCount, PartCrcs crcs) {
    this.store = store;
    this.executor = executor;
    this.uploader = uploader;
    this.key = key;
    this.meta = meta;
    this.multipartSize = multipartSize;
    this.slots = new Semaphore(parallelCount);
    this.crcs = crcs;
  }

  /** The metadata the upload was initiated with (what the object will carry). */
  public WriteMeta initiatedMeta() {
    return initiatedMeta;
  }

  /** True once the upload was initiated and is still usable. */
  public boolean started() {
    return uploadId != null && !invalid;
  }

  /** Bytes handed to part uploads so far. */
  public long streamedUpTo() {
    return streamedUpTo;
  }

  public boolean invalid() {
    return invalid;
  }

  /** True when a write at {@code [offset, end)} would change bytes already handed to a part upload. */
  public boolean conflicts(long offset) {
    return offset < streamedUpTo;
  }

  /**
   * After a write succeeded (and the owner gave its bytes to the {@link PartCrcs}): starts uploads for every whole part
   * now written contiguously from the start of the file. Blocks while {@code parallel_count} parts are in flight. A
   * failure invalidates the stream (the flush re-uploads).
   */
  public void onWrite(StagedFile file) {
    if (invalid) {
      return;
    }
    startWholeParts(file);
  }

  /** Starts uploads for every whole part now written contiguously from the start of the file ({@link #onWrite}). */
  private void startWholeParts(StagedFile file) {
    long contiguous = file.dirty().contiguousFromZero();
    while (!invalid) {
      int partNumber = parts.size() + 1;
      long partSize = PartPlan.streamingPartSize(multipartSize, partNumber);
      // keep at least one more byte back: the last part is uploaded by finish(), so it may be short
      if (contiguous < streamedUpTo + partSize + 1 || partNumber > 9_999) {
        return;
      }
      try {
        if (uploadId == null) {
          initiatedMeta = meta.get();
          uploadId = store.initiateMultipartUpload(key, initiatedMeta);
        }
        slots.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        invalidate();
        return;
      } catch (RuntimeException e) {
        invalidate();
        return;
      }
      long start = streamedUpTo;
      String id = uploadId;
      ContentSource body;
      try {
        // runs while the owner writes on: never from memory buffers
        body = file.spoolContent(start, partSize, crcs == null ? null : crcs.crcOf(start, partSize));
      } catch (RuntimeException e) {
        slots.release();
        invalidate();
        return;
      }
      parts.add(executor.submit(() -> {
        try {
          return store.uploadPart(key, id, partNumber, body);
        } finally {
          slots.release();
        }
      }));
      streamedUpTo += partSize;
    }
  }

  /**
   * Uploads {@code [streamedUpTo, size)} and completes.
   *
   * @throws RuntimeException when any part or the completion fails (the upload is aborted; the caller may retry whole)
   */
  public WriteResult finish(StagedFile file) {
    if (!started()) {
      throw new IllegalStateException("stream not usable");
    }
    try {
      List<PartETag> done = new ArrayList<>();
      for (Future<PartETag> f : parts) {
        done.add(Await.result(f));
      }
      long size = file.size();
      file.materializeSize();
      int next = done.size() + 1;
      long partSize = PartPlan.streamingPartSize(multipartSize, next);
      done.addAll(uploader.uploadParts(key, uploadId, file, streamedUpTo, size, next, partSize));
      WriteResult r = store.completeMultipartUpload(key, uploadId, done);
      uploadId = null;
      return r;
    } catch (RuntimeException e) {
      invalidate();
      throw e;
    }
  }

  /** Gives the stream up: waits for parts in flight, aborts the upload. */
  public void invalidate() {
    if (invalid) {
      return;
    }
    invalid = true;
    for (Future<PartETag> f : parts) {
      try {
        f.get();
      } catch (Exception ignored) {
        // the whole file is uploaded again at flush
      }
    }
    if (uploadId != null) {
      uploader.abortQuietly(key, uploadId);
      uploadId = null;
    }
  }
}
