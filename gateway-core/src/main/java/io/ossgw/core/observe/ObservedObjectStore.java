package io.ossgw.core.observe;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Times every request of the store it wraps and reports it to an {@link EngineObserver} with its OSS API name and
 * outcome ({@code ok} or the {@link io.ossgw.core.store.StoreErrorKind} of the failure). The engine puts it directly
 * over the SDK client, under the retrying decorator, so each attempt is one observation. Any other exception is
 * reported as {@code other} and rethrown.
 */
public final class ObservedObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final EngineObserver observer;

  /** @param delegate the store to time; @param observer receives one {@code ossRequest} per call */
  public ObservedObjectStore(ObjectStore delegate, EngineObserver observer) {
    this.delegate = delegate;
    this.observer = observer;
  }

  private <T> T timed(String operation, Supplier<T> call) {
    long t0 = System.nanoTime();
    String outcome = "other";
    try {
      T result = call.get();
      outcome = EngineObserver.OK;
      return result;
    } catch (StoreException e) {
      outcome = e.kind().name().toLowerCase(Locale.ROOT);
      throw e;
    } finally {
      observer.ossRequest(operation, outcome, System.nanoTime() - t0);
    }
  }

  @Override
  public String bucket() {
    return delegate.bucket();
  }

  @Override
  public ObjectInfo headObject(String key) {
    return timed("HeadObject", () -> delegate.headObject(key));
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    return timed("GetObject", () -> delegate.getObjectRange(key, offset, dst, ifMatch));
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
    return timed("ListObjectsV2", () -> delegate.listObjectsV2(prefix, delimiter, token, startAfter, maxKeys));
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    return timed("PutObject", () -> delegate.putObject(key, body, meta));
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    return timed("CopyObject", () -> delegate.copyObject(sourceKey, destinationKey, meta));
  }

  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    return timed("InitiateMultipartUpload", () -> delegate.initiateMultipartUpload(key, meta));
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    return timed("UploadPart", () -> delegate.uploadPart(key, uploadId, partNumber, body));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId,
      int partNumber) {
    return timed("UploadPartCopy",
        () -> delegate.uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber));
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return timed("UploadPartCopy",
        () -> delegate.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber));
  }

  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    return timed("CompleteMultipartUpload", () -> delegate.completeMultipartUpload(key, uploadId, parts));
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    timed("AbortMultipartUpload", () -> {
      delegate.abortMultipartUpload(key, uploadId);
      return null;
    });
  }

  @Override
  public UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    return timed("ListMultipartUploads",
        () -> delegate.listMultipartUploads(prefix, keyMarker, uploadIdMarker, maxUploads));
  }

  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    return timed("AppendObject", () -> delegate.appendObject(key, position, body, meta));
  }

  @Override
  public void deleteObject(String key) {
    timed("DeleteObject", () -> {
      delegate.deleteObject(key);
      return null;
    });
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    return timed("DeleteMultipleObjects", () -> delegate.deleteObjects(keys));
  }

  @Override
  public void close() {
    delegate.close();
  }
}
