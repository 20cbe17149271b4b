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
   * @param kind what the failure means to the engine
   * @param code the OSS error code, or a transport pseudo-code
   * @param httpStatus the HTTP status, or 0 when no reply arrived
   * @param requestId {@code x-oss-request-id}, or null
   */
  public StoreException(StoreErrorKind kind, String code, int httpStatus, String requestId, String message, Throwable cause) {
    super(message, cause);
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
