package io.ossgw.core.store;

/**
 * A failed object-store request: the engine's view of an OSS error reply or a transport failure.
 *
 * <p>{@link #code()} is the OSS error code from the error XML (or from {@code x-oss-err} on HEAD), e.g.
 * {@code NoSuchKey}, {@code SignatureDoesNotMatch}; for transport failures it is {@code ConnectionError}.
 * Messages never contain credentials.
 */
public class StoreException extends RuntimeException {
  private final StoreErrorKind kind;
  private final String code;
  private final int httpStatus;
  private final String requestId;

  /**
   * A {@link StoreErrorKind#NOT_FOUND} answer without a cause carries no stack trace: a 404 is an expected reply (every
   * CREATE's lookup of its new name gets one), not a fault to trace, and filling a trace through the HTTP client, the
   * retry and metrics wrappers cost more than the rest of the exception.
   *
   * @param kind what the failure means to the engine
   * @param code the OSS error code, or a transport pseudo-code
   * @param httpStatus the HTTP status, or 0 when no reply arrived
   * @param requestId {@code x-oss-request-id}, or null
   */
  public StoreException(StoreErrorKind kind, String code, int httpStatus, String requestId, String message, Throwable cause) {
    super(message, cause, true, !(kind == StoreErrorKind.NOT_FOUND && cause == null));
    this.kind = kind;
    this.code = code;
    this.httpStatus = httpStatus;
    this.requestId = requestId;
  }

  public StoreException(StoreErrorKind kind, String code, String message) {
    this(kind, code, 0, null, message, null);
  }

  public StoreErrorKind kind() {
    return kind;
  }

  public String code() {
    return code;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public String requestId() {
    return requestId;
  }

  /** True for NoSuchKey only. */
  public boolean isNotFound() {
    return kind == StoreErrorKind.NOT_FOUND;
  }

  /** True when a retry may succeed (5xx, 429, timeouts, resets). */
  public boolean isTransient() {
    return kind == StoreErrorKind.TRANSIENT;
  }
}
