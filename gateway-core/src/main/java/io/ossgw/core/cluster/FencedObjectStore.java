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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The write gate of a gateway in a cluster: every request that creates, replaces or deletes an object (PutObject,
 * CopyObject, AppendObject, DeleteObject, DeleteMultipleObjects, and each step of a multipart upload) is sent only
 * while this node holds the serving lease ({@link Fence#valid()}), so a fenced former holder (network cut, paused
 * process) writes nothing once its lease may have passed to another node. A multipart upload is bound to the fencing
 * token it was initiated under: its parts and its completion are refused under any other token (after a loss and a
 * new acquisition, what the upload was based on may have been changed by the other holder meanwhile).
 *
 * <p>With an {@link UploadRecordStore} each upload is also written down in the cluster's store with its token when it
 * is initiated (and removed when it is completed or aborted), so that the next holder aborts what this node leaves
 * open when it dies ({@link #abortOrphans}): an upload that cannot be written down is aborted at once and its
 * InitiateMultipartUpload fails (an upload nobody knows of would stay in the bucket, billed, until a lifecycle rule).
 *
 * <p>Refused requests fail with {@link StoreException} of kind {@link StoreErrorKind#OTHER} and code
 * {@link #LEASE_LOST}, which the engine reports as EIO; they are not retried. Reads, listings and
 * AbortMultipartUpload (which adds nothing) pass. A request already sent when the lease runs out may still land:
 * OSS has no conditional write a token could guard (SEMANTICS.md "Cluster").
 */
public final class FencedObjectStore extends ForwardingObjectStore {
  /** The error code of a refused write. */
  public static final String LEASE_LOST = "LeaseLost";

  /** The error code of an InitiateMultipartUpload that could not be written down in the cluster's store. */
  public static final String UPLOAD_NOT_RECORDED = "UploadNotRecorded";
  private static final System.Logger LOG = System.getLogger(FencedObjectStore.class.getName());

  private final Fence fence;
  private final UploadRecordStore records;
  private final ConcurrentHashMap<String, Long> uploads = new ConcurrentHashMap<>();

  /**
   * @param delegate the store writes go to
   * @param fence this node's lease
   */
  public FencedObjectStore(ObjectStore delegate, Fence fence) {
    this(delegate, fence, null);
  }

  /**
   * @param delegate the store writes go to
   * @param fence this node's lease
   * @param records where open uploads are written down for the next holder, or null (not written down)
   */
  public FencedObjectStore(ObjectStore delegate, Fence fence, UploadRecordStore records) {
    super(delegate);
    this.fence = fence;
    this.records = records;
  }

  /**
   * Aborts the uploads written down under an older fencing token than {@code token} (this node's, just acquired):
   * those of a former holder, which nobody will complete (issue 23 item 2; what they held is lost as in a crash,
   * SEMANTICS.md "Cluster"). An upload under {@code token} or a newer one (a live holder's) is left alone. An upload
   * whose abort fails stays written down, for the next takeover to try again.
   *
   * @return how many uploads were aborted
   * @throws ClusterStoreException when the store cannot be read
   */
  public int abortOrphans(long token) {
    if (records == null) {
      return 0;
    }
    int aborted = 0;
    for (Map.Entry<String, UploadRecordStore.Upload> e : records.loadAll().entrySet()) {
      UploadRecordStore.Upload u = e.getValue();
      if (u.token() >= token) {
        continue;
      }
      try {
        delegate.abortMultipartUpload(u.key(), e.getKey()); // an upload already gone is not an error
        records.remove(e.getKey());
        aborted++;
      } catch (StoreException | ClusterStoreException x) {
        LOG.log(System.Logger.Level.WARNING, "aborting the former holder's upload " + e.getKey() + " of " + u.key()
            + " failed (tried again at the next takeover): " + x.getMessage());
      }
    }
    return aborted;
  }

  private void forget(String uploadId) {
    uploads.remove(uploadId);
    if (records != null) {
      try {
        records.remove(uploadId);
      } catch (ClusterStoreException x) {
        // left written down: the next holder's abort of an upload that is gone is harmless
        LOG.log(System.Logger.Level.DEBUG, "upload " + uploadId + " not removed from the cluster store: " + x);
      }
    }
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
    if (records != null) {
      try {
        records.put(id, new UploadRecordStore.Upload(key, token));
      } catch (ClusterStoreException x) {
        try {
          delegate.abortMultipartUpload(key, id);
        } catch (StoreException y) {
          x.addSuppressed(y);
        }
        throw new StoreException(StoreErrorKind.OTHER, UPLOAD_NOT_RECORDED, 0, null, "InitiateMultipartUpload " + key
            + ": the upload could not be written down in the cluster store, so it was aborted: " + x.getMessage(), x);
      }
    }
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
    forget(uploadId);
    return r;
  }

  @Override
  public void abortMultipartUpload(String key, String uploadId) {
    delegate.abortMultipartUpload(key, uploadId);
    forget(uploadId);
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
