package io.ossgw.core.store;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The narrow object-store client the engine is written against: one bucket, the OSS API subset a filesystem needs.
 *
 * <p>Names follow the OSS API (PutObject, ListObjectsV2, UploadPartCopy, ...). Keys are raw object keys (UTF-8,
 * 1..1023 bytes, never URL-encoded here). Implementations are thread-safe; every call blocks, so callers run them on
 * worker or virtual threads, never on event loops.
 *
 * <p>Errors are {@link StoreException}s whose {@link StoreException#kind()} tells "the object is missing"
 * ({@link StoreErrorKind#NOT_FOUND}, only for OSS {@code NoSuchKey}) apart from everything else: a 5xx, a timeout or a
 * connection reset is {@link StoreErrorKind#TRANSIENT}, never NOT_FOUND.
 *
 * <p>The production implementation is {@code io.ossgw.core.store.aliyun.AliyunObjectStore} (aliyun-sdk-oss 3.18.5),
 * behind {@code io.ossgw.core.store.lean.LeanDataStore}, which carries PutObject, UploadPart, ranged GetObject,
 * HeadObject and ListObjectsV2 over ossgw's own HTTP/1.1 client ({@code data_path=lean}); decorators add retries and request counting. Test doubles wrap a real store to inject failures or throttle.
 */
public interface ObjectStore extends AutoCloseable {

  /** The bucket this store addresses. */
  String bucket();

  /**
   * HeadObject: size, ETag, Last-Modified, object type and user metadata of one object.
   *
   * @throws StoreException NOT_FOUND when the key does not exist (NoSuchKey); NO_SUCH_BUCKET; TRANSIENT; ...
   */
  ObjectInfo headObject(String key);

  /**
   * GetObject with {@code Range: bytes=offset-(offset+length-1)}: reads up to {@code dst.remaining()} bytes starting at
   * {@code offset} into {@code dst} (heap or direct), advancing its position.
   *
   * <p>The range is sent with {@code x-oss-range-behavior: standard}, and a reply other than 206 with the expected
   * {@code Content-Range} is an error, so a short object never yields the whole body by surprise. A start at or past
   * the end of the object reads 0 bytes (not an error). With {@code ifMatch} non-null the request carries
   * {@code If-Match} and a changed object fails with {@link StoreErrorKind#PRECONDITION_FAILED}.
   *
   * @param ifMatch the ETag (without quotes) the object must still have, or null
   * @return what was read: the byte count, and the ETag and total size of the object that served it
   * @throws StoreException NOT_FOUND, PRECONDITION_FAILED, TRANSIENT, ...
   */
  RangeRead getObjectRange(String key, long offset, ByteBuffer dst, String ifMatch);

  /**
   * ListObjectsV2 (encoding-type=url; keys are returned decoded).
   *
   * @param prefix key prefix, "" for the whole bucket
   * @param delimiter "/" to roll deeper keys up into common prefixes, or null for a recursive listing
   * @param continuationToken the previous page's {@link ListPage#nextContinuationToken()}, or null for the first page
   * @param startAfter list keys after this one (first page only), or null
   * @param maxKeys 1..1000
   */
  ListPage listObjectsV2(String prefix, String delimiter, String continuationToken, String startAfter, int maxKeys);

  /**
   * PutObject with an explicit Content-Length and Content-Type and the given user metadata.
   *
   * @return the new object's ETag (and CRC-64 when the server sends it)
   */
  WriteResult putObject(String key, ContentSource body, WriteMeta meta);

  /**
   * CopyObject (objects up to 1 GB). With {@code meta} non-null the copy uses {@code x-oss-metadata-directive: REPLACE}
   * and exactly that metadata (this is how chmod/chown/utimens rewrite an object onto itself); with null it keeps the
   * source's metadata (COPY).
   */
  WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta);

  /** InitiateMultipartUpload; returns the upload id. The metadata becomes the completed object's. */
  String initiateMultipartUpload(String key, WriteMeta meta);

  /** UploadPart (partNumber 1..10000). Non-last parts must be at least 100 KB or Complete fails with EntityTooSmall. */
  PartETag uploadPart(String key, String uploadId, int partNumber, ContentSource body);

  /** UploadPartCopy of {@code [sourceOffset, sourceOffset + length)} of {@code sourceKey} as part {@code partNumber}. */
  PartETag uploadPartCopy(String sourceKey, long sourceOffset, long length, String key, String uploadId, int partNumber);

  /**
   * UploadPartCopy from version {@code sourceEtag} of the source only ({@code x-oss-copy-source-if-match}), so a copy
   * never takes bytes of an object replaced since the caller read its ETag. Decorators pass it through; the default
   * ignores the ETag.
   *
   * @param sourceEtag the ETag (without quotes) the source must still have, or null
   * @throws StoreException PRECONDITION_FAILED when the source has another ETag
   */
  default PartETag uploadPartCopy(String sourceKey, String sourceEtag, long sourceOffset, long length, String key,
      String uploadId, int partNumber) {
    return uploadPartCopy(sourceKey, sourceOffset, length, key, uploadId, partNumber);
  }

  /** CompleteMultipartUpload with the parts in ascending part-number order. */
  WriteResult completeMultipartUpload(String key, String uploadId, List<PartETag> parts);

  /** AbortMultipartUpload; an unknown upload id is not an error. */
  void abortMultipartUpload(String key, String uploadId);

  /**
   * One page of ListMultipartUploads ({@code GET /bucket/?uploads}) of the uploads whose key starts with
   * {@code prefix}; used by the start-up clean-up of {@code incomplete_mpu_abort=}.
   *
   * @param keyMarker {@code key-marker} (null for the first page)
   * @param uploadIdMarker {@code upload-id-marker} (null for the first page)
   * @param maxUploads at most this many (OSS caps it at 1000)
   */
  UploadListing listMultipartUploads(String prefix, String keyMarker, String uploadIdMarker, int maxUploads);

  /**
   * AppendObject at {@code position}. The first append (position 0) creates an Appendable object with {@code meta};
   * later appends ignore it.
   *
   * @throws StoreException CONFLICT for PositionNotEqualToLength or ObjectNotAppendable (see {@link StoreException#code()})
   */
  AppendResult appendObject(String key, long position, ContentSource body, WriteMeta meta);

  /** DeleteObject; a missing key is not an error (OSS answers 204). */
  void deleteObject(String key);

  /**
   * DeleteMultipleObjects for up to 1000 keys.
   *
   * @return the keys that could not be deleted (empty when all went)
   */
  List<String> deleteObjects(List<String> keys);

  /** Releases connections and threads. */
  @Override
  void close();
}
