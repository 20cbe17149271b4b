package io.ossgw.core.diskcache;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.RangeRead;
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
public final class CachingObjectStore extends ForwardingObjectStore {
  private final DiskCache cache;

  public CachingObjectStore(ObjectStore delegate, DiskCache cache) {
    super(delegate);
    this.cache = cache;
  }

  public DiskCache cache() {
    return cache;
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
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    try {
      return delegate.completeMultipartUpload(key, uploadId, parts);
    } finally {
      cache.invalidate(key);
    }
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
}
