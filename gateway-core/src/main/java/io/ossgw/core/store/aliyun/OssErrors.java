package io.ossgw.core.store.aliyun;

import com.aliyun.oss.ClientException;
import com.aliyun.oss.InconsistentException;
import com.aliyun.oss.OSSException;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.tls.TlsErrors;
import java.util.Map;

/**
 * Turns aliyun-sdk-oss exceptions into {@link StoreException}s. The OSS error code decides the kind
 * (reference/oss-api.md §2.3); transport failures ({@link ClientException}) and CRC mismatches are transient, so a
 * timeout is retried and then reported as EIO, never as "not found".
 */
public final class OssErrors {
  private static final Map<String, StoreErrorKind> BY_CODE = Map.ofEntries(
      Map.entry("NoSuchKey", StoreErrorKind.NOT_FOUND),
      Map.entry("NoSuchBucket", StoreErrorKind.NO_SUCH_BUCKET),
      Map.entry("NoSuchUpload", StoreErrorKind.NO_SUCH_UPLOAD),
      Map.entry("AccessDenied", StoreErrorKind.ACCESS_DENIED),
      Map.entry("InvalidAccessKeyId", StoreErrorKind.ACCESS_DENIED),
      Map.entry("SignatureDoesNotMatch", StoreErrorKind.ACCESS_DENIED),
      Map.entry("SecurityTokenExpired", StoreErrorKind.ACCESS_DENIED),
      Map.entry("PreconditionFailed", StoreErrorKind.PRECONDITION_FAILED),
      Map.entry("PositionNotEqualToLength", StoreErrorKind.CONFLICT),
      Map.entry("ObjectNotAppendable", StoreErrorKind.CONFLICT),
      Map.entry("FileAlreadyExists", StoreErrorKind.CONFLICT),
      Map.entry("InternalError", StoreErrorKind.TRANSIENT),
      Map.entry("ServiceUnavailable", StoreErrorKind.TRANSIENT),
      Map.entry("SlowDown", StoreErrorKind.TRANSIENT),
      Map.entry("RequestTimeout", StoreErrorKind.TRANSIENT),
      Map.entry("TooManyRequests", StoreErrorKind.TRANSIENT),
      Map.entry("RequestTimeTooSkewed", StoreErrorKind.TRANSIENT));

  private OssErrors() {}

  /**
   * The kind of an OSS error code (reference/oss-api.md §2.3): the table above, else INVALID_REQUEST for the
   * request-error families ({@code Invalid*}, {@code EntityToo*}, {@code Malformed*}, KeyTooLong, MissingArgument),
   * else OTHER. Shared with the lean data path so both clients classify a reply alike.
   */
  public static StoreErrorKind kindOf(String code) {
    StoreErrorKind kind = BY_CODE.get(code);
    if (kind != null) {
      return kind;
    }
    return code.startsWith("Invalid") || code.startsWith("EntityToo") || code.startsWith("Malformed")
        || code.equals("KeyTooLong") || code.equals("MissingArgument") ? StoreErrorKind.INVALID_REQUEST : StoreErrorKind.OTHER;
  }

  /**
   * Maps any exception thrown by the SDK; {@code what} names the request for the message (never credentials). A
   * failed TLS handshake with {@code endpoint} is not transient ({@link TlsErrors}).
   */
  static StoreException map(RuntimeException e, String what, String endpoint) {
    if (e instanceof StoreException se) {
      return se;
    }
    if (e instanceof OSSException oe) {
      String code = oe.getErrorCode() == null ? "Unknown" : oe.getErrorCode();
      StoreErrorKind kind = kindOf(code);
      return new StoreException(kind, code, 0, oe.getRequestId(),
          what + ": " + code + " (" + oe.getErrorMessage() + ", request " + oe.getRequestId() + ")", e);
    }
    if (e instanceof ClientException ce) {
      StoreException tls = TlsErrors.classify(ce, endpoint, what);
      if (tls != null) {
        return tls;
      }
      String code = ce.getErrorCode() == null ? "ClientError" : ce.getErrorCode();
      return new StoreException(StoreErrorKind.TRANSIENT, code, 0, ce.getRequestId(),
          what + ": " + code + " (" + ce.getErrorMessage() + ")", e);
    }
    if (e instanceof InconsistentException ie) {
      return new StoreException(StoreErrorKind.TRANSIENT, "InconsistentCRC", 0, ie.getRequestId(),
          what + ": CRC-64 of the transfer does not match the server's", e);
    }
    return new StoreException(StoreErrorKind.OTHER, e.getClass().getSimpleName(), 0, null, what + ": " + e, e);
  }
}
