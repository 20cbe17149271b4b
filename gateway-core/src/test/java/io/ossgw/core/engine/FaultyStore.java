package io.ossgw.core.engine;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * An object store that fails every {@code every}-th request attempt with a transient error (HTTP 503), the engine's
 * retries being what must hide it. Alternately the failure comes before the request is sent (a connection reset while
 * sending) and after OSS has carried it out (the response lost): the retry then sends the same request, body and
 * all, a second time, and OSS answers what it would answer to a repetition (a second upload id for
 * InitiateMultipartUpload, NoSuchUpload for a completed CompleteMultipartUpload, PositionNotEqualToLength for an
 * AppendObject). Sits under the engine's retrying store, so it sees every attempt.
 */
final class FaultyStore extends ForwardingObjectStore {
  private final long every;
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong injected = new AtomicLong();

  FaultyStore(ObjectStore delegate, long every) {
    super(delegate);
    this.every = every;
  }

  /** How many failures were injected so far. */
  long injected() {
    return injected.get();
  }

  private <T> T attempt(Supplier<T> call) {
    long n = attempts.incrementAndGet();
    if (n % every != 0) {
      return call.get();
    }
    injected.incrementAndGet();
    boolean after = (n / every) % 2 == 0;
    if (after) {
      call.get();
    }
    throw new StoreException(StoreErrorKind.TRANSIENT, "InjectedFault", 503, null,
        "injected " + (after ? "after the request was carried out" : "before the request was sent"), null);
  }

  private void attempt(Runnable call) {
    attempt(() -> {
      call.run();
      return null;
    });
  }

  @Override
  public ObjectInfo headObject(String key) {
    return attempt(() -> super.headObject(key));
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    // a read fills dst: failing after it would leave bytes behind that the retry overwrites, as a lost response does
    return attempt(() -> super.getObjectRange(key, offset, dst, ifMatch));
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
    return attempt(() -> super.listObjectsV2(prefix, delimiter, token, startAfter, maxKeys));
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    return attempt(() -> super.putObject(key, body, meta));
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    return attempt(() -> super.copyObject(sourceKey, destinationKey, meta));
  }

  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    return attempt(() -> super.initiateMultipartUpload(key, meta));
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    return attempt(() -> super.uploadPart(key, uploadId, partNumber, body));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId,
      int partNumber) {
    return attempt(() -> super.uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return attempt(() -> super.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber));
  }

  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    return attempt(() -> super.completeMultipartUpload(key, uploadId, parts));
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    attempt(() -> super.abortMultipartUpload(key, uploadId));
  }

  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    return attempt(() -> super.appendObject(key, position, body, meta));
  }

  @Override
  public void deleteObject(String key) {
    attempt(() -> super.deleteObject(key));
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    return attempt(() -> super.deleteObjects(keys));
  }
}
