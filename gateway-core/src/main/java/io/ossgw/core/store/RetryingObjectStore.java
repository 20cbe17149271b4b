package io.ossgw.core.store;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Retries {@link StoreException#isTransient() transient} failures (5xx, 429, timeouts, resets, CRC mismatches) with
 * exponential backoff and full jitter: attempt n waits a random time up to {@code baseDelayMillis * 2^(n-1)}, capped
 * at {@code maxDelayMillis}. Other errors pass through at once. After the last attempt the transient error is thrown,
 * and the VFS reports it as EIO (never ENOENT).
 *
 * <p>Bodies are {@link ContentSource}s, reopened for each attempt; a ranged read restores the buffer's position first.
 * InitiateMultipartUpload is retried too, and since an attempt whose reply was lost may have created an upload, the
 * uploads such attempts left are looked for and aborted ({@link LostInitiateReplies}).
 */
public final class RetryingObjectStore implements ObjectStore {
  /** Notified of every retry (metrics). */
  public interface RetryListener {
    void onRetry(String operation, StoreException cause, int attempt);
  }

  private final ObjectStore delegate;
  private final int attempts;
  private final long baseDelayMillis;
  private final long maxDelayMillis;
  private final RetryListener listener;
  private final LostInitiateReplies lostInitiates = new LostInitiateReplies(this);

  /**
   * @param attempts total tries per request, at least 1 (ossfs {@code retries=}, default 5)
   */
  public RetryingObjectStore(ObjectStore delegate, int attempts, long baseDelayMillis, long maxDelayMillis, RetryListener listener) {
    this.delegate = delegate;
    this.attempts = Math.max(1, attempts);
    this.baseDelayMillis = baseDelayMillis;
    this.maxDelayMillis = maxDelayMillis;
    this.listener = listener == null ? (op, e, n) -> {} : listener;
  }

  private <T> T retry(String op, Supplier<T> call, Runnable beforeRetry) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (StoreException e) {
        if (!e.isTransient() || attempt >= attempts) {
          throw e;
        }
        listener.onRetry(op, e, attempt);
        long cap = Math.min(maxDelayMillis, baseDelayMillis << Math.min(20, attempt - 1));
        try {
          Thread.sleep(ThreadLocalRandom.current().nextLong(cap + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw e;
        }
        if (beforeRetry != null) {
          beforeRetry.run();
        }
      }
    }
  }

  private <T> T retry(String op, Supplier<T> call) {
    return retry(op, call, null);
  }

  @Override
  public String bucket() {
    return delegate.bucket();
  }

  @Override
  public ObjectInfo headObject(String key) {
    return retry("HeadObject", () -> delegate.headObject(key));
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    int pos = dst.position();
    int limit = dst.limit();
    return retry("GetObject", () -> delegate.getObjectRange(key, offset, dst, ifMatch), () -> dst.limit(limit).position(pos));
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
    return retry("ListObjectsV2", () -> delegate.listObjectsV2(prefix, delimiter, token, startAfter, maxKeys));
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    return retry("PutObject", () -> delegate.putObject(key, body, meta));
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    return retry("CopyObject", () -> delegate.copyObject(sourceKey, destinationKey, meta));
  }

  /**
   * Retried like the rest; if an attempt failed (its upload may exist with an id never seen), the uploads of the key
   * such attempts left are aborted once this one's id is known, or at {@link #close()} if every attempt failed.
   */
  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    Instant firstSent = Instant.now();
    boolean[] failedOnce = {false};
    String id;
    try {
      id = retry("InitiateMultipartUpload", () -> delegate.initiateMultipartUpload(key, meta), () -> failedOnce[0] = true);
    } catch (StoreException e) {
      if (e.isTransient() || failedOnce[0]) {
        lostInitiates.uncertain(key, new LostInitiateReplies.Attempts(firstSent, Instant.now(), null));
      }
      throw e;
    }
    lostInitiates.initiated(id, meta);
    if (failedOnce[0]) {
      lostInitiates.uncertain(key, new LostInitiateReplies.Attempts(firstSent, Instant.now(), id));
    }
    return id;
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    return retry("UploadPart", () -> delegate.uploadPart(key, uploadId, partNumber, body));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId, int partNumber) {
    return retry("UploadPartCopy", () -> delegate.uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return retry("UploadPartCopy",
        () -> delegate.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber));
  }

  /**
   * Retried like the rest; when a retry finds the upload gone (NoSuchUpload) after an attempt whose outcome was unknown,
   * that attempt may have completed it: {@link LostCompleteReplies} decides with one HeadObject.
   */
  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    boolean[] failedOnce = {false};
    try {
      WriteResult r = retry("CompleteMultipartUpload", () -> delegate.completeMultipartUpload(key, uploadId, parts),
          () -> failedOnce[0] = true);
      lostInitiates.ended(uploadId);
      return r;
    } catch (StoreException e) {
      if (e.kind() != StoreErrorKind.NO_SUCH_UPLOAD) {
        throw e;
      }
      WriteMeta sent = lostInitiates.sent(uploadId);
      lostInitiates.ended(uploadId);
      if (!failedOnce[0]) {
        throw e;
      }
      return LostCompleteReplies.recover(this, key, parts, sent, e);
    }
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    retry("AbortMultipartUpload", () -> {
      delegate.abortMultipartUpload(key, uploadId);
      return null;
    });
    lostInitiates.ended(uploadId);
  }

  @Override
  public UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    return retry("ListMultipartUploads",
        () -> delegate.listMultipartUploads(prefix, keyMarker, uploadIdMarker, maxUploads));
  }

  /**
   * Retried, but never blindly: a lost reply to a successful append would make the retry fail with
   * PositionNotEqualToLength, so before each retry {@link LostAppendReplies} reads what the failed attempt left (one
   * HeadObject; when the length says it was carried out, a GetObject per MiB to compare the bytes).
   */
  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    boolean[] uncertain = {false};
    return retry("AppendObject", () -> {
      if (uncertain[0]) {
        AppendResult landed = LostAppendReplies.landed(this, key, position, body);
        if (landed != null) {
          return landed;
        }
      }
      return delegate.appendObject(key, position, body, meta);
    }, () -> uncertain[0] = true);
  }

  @Override
  public void deleteObject(String key) {
    retry("DeleteObject", () -> {
      delegate.deleteObject(key);
      return null;
    });
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    return retry("DeleteMultipleObjects", () -> delegate.deleteObjects(keys));
  }

  /** Looks for the uploads that failed InitiateMultipartUpload attempts may have left (see above), then closes. */
  @Override
  public void close() {
    try {
      lostInitiates.closing();
    } finally {
      delegate.close();
    }
  }
}
