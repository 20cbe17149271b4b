package io.ossgw.core.write;

import io.ossgw.core.meta.UploadRecord;
import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Keeps the {@link UploadRecord} of every multipart upload that passes through: recorded when InitiateMultipartUpload
 * returns its id, forgotten when CompleteMultipartUpload or AbortMultipartUpload succeeds (or OSS answers
 * NoSuchUpload). All uploads of the engine (streamed writes, whole-file uploads, appends, multipart copies) go through
 * this one decorator, so none is missed. An upload that a crash interrupts stays recorded, and
 * {@link OrphanUploads#abortRecorded} aborts it at the next start.
 */
public final class RecordingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final UploadRecord record;

  public RecordingObjectStore(ObjectStore delegate, UploadRecord record) {
    this.delegate = delegate;
    this.record = record;
  }

  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    String id = delegate.initiateMultipartUpload(key, meta);
    record.started(key, id);
    return id;
  }

  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    try {
      WriteResult r = delegate.completeMultipartUpload(key, uploadId, parts);
      record.finished(uploadId);
      return r;
    } catch (StoreException e) {
      if (e.kind() == StoreErrorKind.NO_SUCH_UPLOAD) {
        record.finished(uploadId); // nothing left to abort
      }
      throw e;
    }
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    delegate.abortMultipartUpload(key, uploadId); // an unknown id is not an error: either way it is gone
    record.finished(uploadId);
  }

  @Override
  public String bucket() {
    return delegate.bucket();
  }

  @Override
  public ObjectInfo headObject(String key) {
    return delegate.headObject(key);
  }

  @Override
  public RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch) {
    return delegate.getObjectRange(key, offset, dst, ifMatch);
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String continuationToken, String startAfter,
      int maxKeys) {
    return delegate.listObjectsV2(prefix, delimiter, continuationToken, startAfter, maxKeys);
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    return delegate.putObject(key, body, meta);
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    return delegate.copyObject(sourceKey, destinationKey, meta);
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    return delegate.uploadPart(key, uploadId, partNumber, body);
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId,
      int partNumber) {
    return delegate.uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber);
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return delegate.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber);
  }

  @Override
  public UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads) {
    return delegate.listMultipartUploads(prefix, keyMarker, uploadIdMarker, maxUploads);
  }

  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    return delegate.appendObject(key, position, body, meta);
  }

  @Override
  public void deleteObject(String key) {
    delegate.deleteObject(key);
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    return delegate.deleteObjects(keys);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
