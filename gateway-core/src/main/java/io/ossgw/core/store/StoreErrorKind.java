package io.ossgw.core.store;

/**
 * What a failed OSS request means to the engine. Only {@link #NOT_FOUND} may ever become ENOENT; a server error or a
 * timeout is {@link #TRANSIENT} and becomes EIO after retries (DESIGN.md: errors are never turned into ENOENT).
 */
public enum StoreErrorKind {
  /** NoSuchKey (404): the object does not exist. */
  NOT_FOUND,
  /** NoSuchBucket (404): the bucket does not exist. */
  NO_SUCH_BUCKET,
  /** NoSuchUpload (404): the multipart upload id is unknown (aborted or completed). */
  NO_SUCH_UPLOAD,
  /** AccessDenied, InvalidAccessKeyId, SignatureDoesNotMatch (403). */
  ACCESS_DENIED,
  /** PreconditionFailed (412): an If-Match ETag no longer matches. */
  PRECONDITION_FAILED,
  /** 409: PositionNotEqualToLength, ObjectNotAppendable, FileAlreadyExists. */
  CONFLICT,
  /** 400-class request errors: InvalidArgument, EntityTooSmall, InvalidPart, InvalidPartOrder, InvalidRange, ... */
  INVALID_REQUEST,
  /** 5xx, 429, timeouts, connection resets and refused connections: worth retrying. */
  TRANSIENT,
  /** Anything else (unexpected status, malformed reply). */
  OTHER
}
