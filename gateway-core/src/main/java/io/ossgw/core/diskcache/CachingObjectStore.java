package io.ossgw.core.diskcache;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
import io.ossgw.core.store.UploadListing;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * An {@link ObjectStore} decorator that serves ranged GETs from a {@link DiskCache} ({@code use_cache=DIR}).
 *
 * <p>A GET pinned to an ETag ({@code ifMatch}, which every read of an open file is) is answered from disk when every
 * requested byte of that version is cached, with no request; otherwise it goes to OSS and the bytes that come back are
 * stored under the ETag OSS reported. A GET without {@code ifMatch} is never answered from disk (the caller has not
 * said which version it wants) but still fills the cache. Every write this gateway makes to a key (PutObject,
 * CopyObject destination, CompleteMultipartUpload, AppendObject, DeleteObject) drops that key's entry. Changes made by
 * other clients are noticed when the engine's attributes (and so the ETag it pins) are refreshed: an entry of another
 * ETag is dropped at the next read.
 */
public final class CachingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final DiskCache cache;

  public CachingObjectStore(ObjectStore delegate, DiskCache cache) {
    this.delegate = delegate;
    this.cache = cache;
  }

  public DiskCache cache() {
    return cache;
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
    int start = dst.position();
    if (ifMatch != null) {
      long size = cache.read(key, ifMatch, offset, dst);
      if (size >= 0) {
        return new RangeRead(dst.position() - start, ifMatch, size);
      }
    }
    RangeRead r = delegate.getObjectRange(key, offset, dst, ifMatch);
    if (r.bytesRead() > 0 && r.etag() != null && r.objectSize() >= 0) {
      ByteBuffer got = dst.duplicate();
      got.limit(start + r.bytesRead()).position(start);
      cache.store(key, r.etag(), r.objectSize(), offset, got);
    }
    return r;
  }

  @Override
  public ListPage listObjectsV2(String prefix, String delimiter, String continuationToken, String startAfter, int maxKeys) {
    return delegate.listObjectsV2(prefix, delimiter, continuationToken, startAfter, maxKeys);
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    try {
      return delegate.putObject(key, body, meta);
    } finally {
      cache.invalidate(key);
    }
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    try {
      return delegate.copyObject(sourceKey, destinationKey, meta);
    } finally {
      cache.invalidate(destinationKey);
    }
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
    try {
      return delegate.completeMultipartUpload(key, uploadId, parts);
    } finally {
      cache.invalidate(key);
    }
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
    try {
      return delegate.appendObject(key, position, body, meta);
    } finally {
      cache.invalidate(key);
    }
  }

  @Override
  public void deleteObject(String key) {
    try {
      delegate.deleteObject(key);
    } finally {
      cache.invalidate(key);
    }
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    try {
      return delegate.deleteObjects(keys);
    } finally {
      keys.forEach(cache::invalidate);
    }
  }

  /** Closes the wrapped store; the cache is closed by its owner (the engine). */
  @Override
  public void close() {
    delegate.close();
  }
}
