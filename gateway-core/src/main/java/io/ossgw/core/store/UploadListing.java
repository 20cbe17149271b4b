package io.ossgw.core.store;

import java.time.Instant;
import java.util.List;

/**
 * One page of ListMultipartUploads: the multipart uploads initiated and neither completed nor aborted.
 *
 * @param uploads the uploads in key, then upload-id order
 * @param nextKeyMarker the {@code key-marker} of the next page, or null when {@code truncated} is false
 * @param nextUploadIdMarker the {@code upload-id-marker} of the next page, or null
 * @param truncated IsTruncated
 */
public record UploadListing(List<Upload> uploads, String nextKeyMarker, String nextUploadIdMarker, boolean truncated) {
  public UploadListing {
    uploads = List.copyOf(uploads);
  }

  /**
   * One incomplete multipart upload.
   *
   * @param key the object key it will create
   * @param uploadId the upload id
   * @param initiated when OSS says it was initiated (server clock), or null if the listing omitted it
   */
  public record Upload(String key, String uploadId, Instant initiated) {}
}
