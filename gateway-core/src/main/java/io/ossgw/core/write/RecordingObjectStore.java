package io.ossgw.core.write;

import io.ossgw.core.meta.UploadRecord;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import java.util.List;

/**
 * Keeps the {@link UploadRecord} of every multipart upload that passes through: recorded when InitiateMultipartUpload
 * returns its id, forgotten when CompleteMultipartUpload or AbortMultipartUpload succeeds (or OSS answers
 * NoSuchUpload). All uploads of the engine (streamed writes, whole-file uploads, appends, multipart copies) go through
 * this one decorator, so none is missed. An upload that a crash interrupts stays recorded, and
 * {@link OrphanUploads#abortRecorded} aborts it at the next start.
 */
public final class RecordingObjectStore extends ForwardingObjectStore {
  private final UploadRecord record;

  public RecordingObjectStore(ObjectStore delegate, UploadRecord record) {
    super(delegate);
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
}
