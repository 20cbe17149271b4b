package io.ossgw.core.cluster;

import io.ossgw.core.store.AppendResult;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write gate of a gateway in a cluster: every request that creates, replaces or deletes an object (PutObject,
 * CopyObject, AppendObject, DeleteObject, DeleteMultipleObjects, and each step of a multipart upload) is sent only
 * while this node holds the serving lease ({@link Fence#valid()}), so a fenced former holder (network cut, paused
 * process) writes nothing once its lease may have passed to another node. A multipart upload is bound to the fencing
 * token it was initiated under: its parts and its completion are refused under any other token (after a loss and a
 * new acquisition, what the upload was based on may have been changed by the other holder meanwhile).
 *
 * <p>Refused requests fail with {@link StoreException} of kind {@link StoreErrorKind#OTHER} and code
 * {@link #LEASE_LOST}, which the engine reports as EIO; they are not retried. Reads, listings and
 * AbortMultipartUpload (which adds nothing) pass. A request already sent when the lease runs out may still land:
 * OSS has no conditional write a token could guard (SEMANTICS.md "Cluster").
 */
public final class FencedObjectStore extends ForwardingObjectStore {
  /** The error code of a refused write. */
  public static final String LEASE_LOST = "LeaseLost";

  private final Fence fence;
  private final ConcurrentHashMap<String, Long> uploads = new ConcurrentHashMap<>();

  /**
   * @param delegate the store writes go to
   * @param fence this node's lease
   */
  public FencedObjectStore(ObjectStore delegate, Fence fence) {
    super(delegate);
    this.fence = fence;
  }

  private long check(String op, String key) {
    long token = fence.token();
    if (token == 0 || !fence.validFor(token)) {
      throw refused(op, key);
    }
    return token;
  }

  private StoreException refused(String op, String key) {
    return new StoreException(StoreErrorKind.OTHER, LEASE_LOST, 0, null, op + " " + key
        + " refused: this gateway does not hold the cluster lease (fenced); another gateway serves the bucket", null);
  }

  private void checkUpload(String op, String key, String uploadId) {
    Long token = uploads.get(uploadId);
    if (token == null) {
      check(op, key); // initiated before this store existed (an earlier run's upload being finished): lease only
    } else if (!fence.validFor(token)) {
      throw refused(op, key);
    }
  }

  @Override
  public WriteResult putObject(String key, ContentSource body, WriteMeta meta) {
    check("PutObject", key);
    return delegate.putObject(key, body, meta);
  }

  @Override
  public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
    check("CopyObject", destinationKey);
    return delegate.copyObject(sourceKey, destinationKey, meta);
  }

  @Override
  public String initiateMultipartUpload(String key, WriteMeta meta) {
    long token = check("InitiateMultipartUpload", key);
    String id = delegate.initiateMultipartUpload(key, meta);
    uploads.put(id, token);
    return id;
  }

  @Override
  public PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body) {
    checkUpload("UploadPart", key, uploadId);
    return delegate.uploadPart(key, uploadId, partNumber, body);
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId,
      int partNumber) {
    checkUpload("UploadPartCopy", key, uploadId);
    return delegate.uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber);
  }

  @Override
  public PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    checkUpload("UploadPartCopy", key, uploadId);
    return delegate.uploadPartCopy(sourceKey, sourceEtag, sourceOffset, length, key, uploadId, partNumber);
  }

  @Override
  public WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts) {
    checkUpload("CompleteMultipartUpload", key, uploadId);
    WriteResult r = delegate.completeMultipartUpload(key, uploadId, parts);
    uploads.remove(uploadId);
    return r;
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    uploads.remove(uploadId);
    delegate.abortMultipartUpload(key, uploadId);
  }

  @Override
  public AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta) {
    check("AppendObject", key);
    return delegate.appendObject(key, position, body, meta);
  }

  @Override
  public void deleteObject(String key) {
    check("DeleteObject", key);
    delegate.deleteObject(key);
  }

  @Override
  public List<String> deleteObjects(List<String> keys) {
    check("DeleteMultipleObjects", keys.isEmpty() ? "" : keys.getFirst() + (keys.size() > 1 ? " ..." : ""));
    return delegate.deleteObjects(keys);
  }

  /** Multipart uploads initiated through this store and not yet completed or aborted. */
  public int openUploads() {
    return uploads.size();
  }
}
