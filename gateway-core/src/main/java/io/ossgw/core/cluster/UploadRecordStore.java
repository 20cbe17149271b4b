package io.ossgw.core.cluster;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the serving node writes down the multipart uploads it has open in one bucket (InitiateMultipartUpload to
 * CompleteMultipartUpload or AbortMultipartUpload), each with the fencing token it was initiated under, so that the
 * node taking the serving lease over can abort the ones its dead or fenced predecessor left (issue 23 item 2:
 * {@link FencedObjectStore#abortOrphans}). Only uploads this cluster started are written here: an upload of another
 * program in the bucket is never touched. {@link Memory} is the in-process form (tests); gateway-app has the
 * Valkey/Redis one (one hash per cluster and bucket).
 */
public interface UploadRecordStore {
  /** An open upload: the object key and the fencing token it was initiated under. */
  record Upload(String key, long token) {}

  /** Writes an upload down. @throws ClusterStoreException the store failed */
  void put(String uploadId, Upload upload);

  /** Removes an upload (absent is fine). @throws ClusterStoreException the store failed */
  void remove(String uploadId);

  /** Every upload written down, by upload id (a copy). @throws ClusterStoreException the store failed */
  Map<String, Upload> loadAll();

  /** Uploads in this process's memory. */
  final class Memory implements UploadRecordStore {
    private final ConcurrentHashMap<String, Upload> uploads = new ConcurrentHashMap<>();

    @Override
    public void put(String uploadId, Upload upload) {
      uploads.put(uploadId, upload);
    }

    @Override
    public void remove(String uploadId) {
      uploads.remove(uploadId);
    }

    @Override
    public Map<String, Upload> loadAll() {
      return new HashMap<>(uploads);
    }
  }
}
