package io.ossgw.core.store.tls;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCounted;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Client {@link SSLEngine}s for one {@link TlsTrust}: BoringSSL through netty-tcnative ({@code
 * netty-tcnative-boringssl-static}, its AES-GCM in native code at the same cost whatever the JIT does) when its
 * native library loads on this platform, else the JDK's (JSSE; its AES-GCM and GHASH are fast only once C2 has
 * compiled them: docs/benchmarks.md "HTTPS on the lean path"). {@code -Dio.ossgw.tls.engine=jdk} or {@code =openssl}
 * chooses (openssl fails the connection when it cannot load).
 *
 * <p>Every engine checks the certificate against the trust's stores and the host name (endpoint identification
 * {@code HTTPS}, RFC 2818 §3.1), and sends the host as SNI (RFC 6066 §3) when it is a name; engines made for the same
 * host and port share one client session cache, so a new connection resumes (RFC 8446 §2.2).
 */
final class TlsEngines {
  private static final System.Logger LOG = System.getLogger(TlsEngines.class.getName());

  private final TlsTrust trust;
  private final SslContext openssl;

  TlsEngines(TlsTrust trust) {
    this.trust = trust;
    String want = System.getProperty("io.ossgw.tls.engine", "");
    SslContext ctx = null;
    if (!want.equals("jdk")) {
      try {
        if (OpenSsl.isAvailable()) {
          ctx = SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL).trustManager(trust.trustManager())
              .endpointIdentificationAlgorithm("HTTPS").build();
        } else if (want.equals("openssl")) {
          throw new IllegalStateException("io.ossgw.tls.engine=openssl: BoringSSL (netty-tcnative) does not load "
              + "here: " + OpenSsl.unavailabilityCause(), OpenSsl.unavailabilityCause());
        } else {
          LOG.log(System.Logger.Level.INFO, "TLS through the JDK: BoringSSL (netty-tcnative) does not load here ("
              + OpenSsl.unavailabilityCause() + ")");
        }
      } catch (SSLException | LinkageError e) {
        if (want.equals("openssl")) {
          throw new IllegalStateException("io.ossgw.tls.engine=openssl: " + e, e);
        }
        LOG.log(System.Logger.Level.INFO, "TLS through the JDK: BoringSSL (netty-tcnative) unusable: " + e);
      }
    }
    this.openssl = ctx;
  }

  /** "BoringSSL" or "JDK": the engine new connections get. */
  String provider() {
    return openssl != null ? "BoringSSL" : "JDK";
  }

  /** A client engine for {@code host:port} (a name or an address literal without brackets). */
  SSLEngine client(String host, int port) {
    SSLEngine e = openssl != null ? openssl.newEngine(ByteBufAllocator.DEFAULT, host, port)
        : trust.context().createSSLEngine(host, port);
    e.setUseClientMode(true);
    SSLParameters p = e.getSSLParameters();
    p.setEndpointIdentificationAlgorithm("HTTPS");
    e.setSSLParameters(p);
    return e;
  }

  /** Frees what an engine holds outside the heap (BoringSSL's SSL object); the engine is unusable after. */
  static void release(SSLEngine e) {
    if (e instanceof ReferenceCounted rc && rc.refCnt() > 0) {
      rc.release();
    }
  }
}
