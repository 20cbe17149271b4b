package io.ossgw.core.store;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * An {@link ObjectStore} that hands every call to {@link #delegate} unchanged: the base of the decorators that add to
 * a few operations only (the disk cache, the multipart upload record) and override just those. The default method
 * ({@code uploadPartCopy} with a source ETag) is forwarded too, so the wrapped store's own version is used.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
  /** The wrapped store. */
  protected final ObjectStore delegate;

  /** @param delegate the store every call goes to */
  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
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
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    return delegate.initiateMultipartUpload(key, meta);
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
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    return delegate.completeMultipartUpload(key, uploadId, parts);
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    delegate.abortMultipartUpload(key, uploadId);
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
