package io.ossgw.core.store.tls;

import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * TLS handshake failures as store errors, for the lean client and aliyun-sdk-oss alike. A server that is not trusted
 * (unknown CA, expired certificate, a name that is not the host's) or with which no TLS version or suite is shared
 * stays so on every attempt, so these are not transient: they fail at once, and at start-up they fail the mount with
 * a message naming the endpoint ({@code Engine}'s bucket check), instead of retrying and calling it unreachable.
 */
public final class TlsErrors {
  /** Code of an untrusted or mis-named server certificate. */
  public static final String CERTIFICATE = "TlsCertificate";
  /** Code of any other failed handshake (no common protocol or cipher suite, an alert from the server). */
  public static final String HANDSHAKE = "TlsHandshake";

  private TlsErrors() {}

  /**
   * The store error for {@code e} if it is (or was caused by) a failed TLS handshake, else null.
   *
   * @param endpoint the {@code https://} endpoint, named in the message
   * @param what the request, named in the message
   */
  public static StoreException classify(Throwable e, String endpoint, String what) {
    SSLException hs = null;
    Exception cert = null;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (hs == null && (t instanceof SSLHandshakeException || t instanceof SSLPeerUnverifiedException)) {
        hs = (SSLException) t;
      }
      // HttpClient (the SDK's) checks the host name after the handshake: SSLPeerUnverifiedException
      if (cert == null && (t instanceof CertificateException || t instanceof SSLPeerUnverifiedException)) {
        cert = (Exception) t;
      }
    }
    if (hs == null) {
      return null;
    }
    String msg = cert != null
        ? "the TLS certificate of " + endpoint + " is not accepted: " + cert.getMessage()
        : "TLS handshake with " + endpoint + " failed: " + hs.getMessage();
    return new StoreException(StoreErrorKind.OTHER, cert != null ? CERTIFICATE : HANDSHAKE, 0, null,
        what + ": " + msg, e);
  }
}
