package io.ossgw.core.store;

import java.util.List;

/**
 * CompleteMultipartUpload attempts whose reply was lost after OSS had completed the upload. The retry then finds the
 * upload gone (NoSuchUpload, 404), and without this the writer would report EIO for bytes that are in OSS, and refuse to
 * send them again because the object "changed" (its own new version). So when a retried CompleteMultipartUpload answers
 * NoSuchUpload after an earlier attempt whose outcome was unknown (a transient failure), one HeadObject decides: the
 * object under the key is this upload's when it is a multipart object of as many parts (its ETag ends in {@code -N}, as
 * OSS gives every multipart object), of the parts' total size, with the content type and every {@code x-oss-meta-*}
 * value its InitiateMultipartUpload sent. ossgw's metadata carries the change time to the nanosecond
 * ({@code x-oss-meta-ctime}), so an earlier version of the file does not pass for the new one. Anything else keeps the
 * NoSuchUpload: the upload was aborted (by another client, a lifecycle rule or {@code incomplete_mpu_abort}) and the
 * writer's error stands. A mismatch can only make the writer report an error, never a success it did not have. The
 * metadata sent is what {@link LostInitiateReplies} holds for each upload in flight.
 */
final class LostCompleteReplies {
  private LostCompleteReplies() {}

  /**
   * The result of a CompleteMultipartUpload that OSS carried out although its reply was lost, from a HeadObject of
   * {@code key} through {@code store}.
   *
   * @param sent the metadata the upload's InitiateMultipartUpload sent, or null when unknown
   * @param noSuchUpload the retry's NoSuchUpload, thrown again when the object is not this upload's (or cannot be read)
   * @return the completed object's ETag; no CRC-64 (HeadObject gives none here)
   */
  static WriteResult recover(ObjectStore store, String key, List<PartETag> parts, WriteMeta sent,
      StoreException noSuchUpload) {
    if (sent == null || parts.isEmpty()) {
      throw noSuchUpload; // not initiated through this store: nothing to compare with
    }
    ObjectInfo now;
    try {
      now = store.headObject(key);
    } catch (StoreException e) {
      noSuchUpload.addSuppressed(e);
      throw noSuchUpload;
    }
    long size = 0;
    for (PartETag p : parts) {
      size += p.size();
    }
    String etag = now.etag() == null ? "" : now.etag().replace("\"", "");
    boolean ours = now.size() == size && etag.endsWith("-" + parts.size())
        && sent.contentType().equals(now.contentType()) && sent.userMeta().equals(now.userMeta());
    if (!ours) {
      throw noSuchUpload;
    }
    return new WriteResult(now.etag(), null);
  }
}
