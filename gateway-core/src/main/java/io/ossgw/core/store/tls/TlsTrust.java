package io.ossgw.core.store.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Whom ossgw trusts on {@code https://} endpoints, for the lean client and aliyun-sdk-oss alike: a server certificate
 * is accepted when it chains to a CA of <b>the JVM's trust store</b> ({@code -Djavax.net.ssl.trustStore=} when set,
 * else the JDK's {@code cacerts}, as {@link TrustManagerFactory} initialised with no key store reads it) <b>or of the
 * system CA bundle</b> (the first of {@link #SYSTEM_BUNDLES} that exists: Debian/Ubuntu, RHEL/Fedora, SUSE, Alpine;
 * what libcurl and OpenSSL use, so ossfs on the same host trusts the same servers), and the certificate names the host
 * connected to (RFC 2818 §3.1 / RFC 6125, the JDK's {@code HTTPS} endpoint identification, which the caller's engine
 * parameters turn on).
 *
 * <p>Both stores are read once, when this is built. {@link #fullHandshakes} counts the certificate chains verified:
 * a resumed TLS session (RFC 8446 §2.2 PSK, RFC 5077 tickets) verifies none, so tests see resumption through it.
 */
public final class TlsTrust {
  /** Where distributions keep the CA bundle OpenSSL and libcurl read, in the order tried. */
  public static final List<Path> SYSTEM_BUNDLES = List.of(Path.of("/etc/ssl/certs/ca-certificates.crt"),
      Path.of("/etc/pki/tls/certs/ca-bundle.crt"), Path.of("/etc/ssl/ca-bundle.pem"), Path.of("/etc/ssl/cert.pem"));

  private static volatile TlsTrust system;

  private final X509ExtendedTrustManager jvm;
  private final X509ExtendedTrustManager bundle;
  private final Path bundlePath;
  private final String jvmStore;
  private final String storeProperty;
  private final AtomicLong verified = new AtomicLong();
  private final SSLContext context;
  private final X509ExtendedTrustManager composite;
  private volatile TlsEngines engines;

  private TlsTrust(Path bundlePath) {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init((KeyStore) null);
      this.jvm = extended(tmf.getTrustManagers());
      this.bundlePath = bundlePath;
      this.bundle = bundlePath == null ? null : bundleManager(bundlePath);
      String store = System.getProperty("javax.net.ssl.trustStore");
      this.storeProperty = store;
      this.jvmStore = store != null ? store : Path.of(System.getProperty("java.home"), "lib", "security", "cacerts")
          .toString();
      this.context = SSLContext.getInstance("TLS");
      this.composite = new Composite();
      context.init(null, new TrustManager[] {composite}, null);
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot set up TLS trust: " + e, e);
    }
  }

  /**
   * The trust of this process: the JVM's trust store and the system CA bundle found on this host (read on first use,
   * then shared, so every connection of the process shares one TLS session cache).
   *
   * @throws IllegalStateException when a trust store or the bundle cannot be read
   */
  public static TlsTrust system() {
    TlsTrust t = system;
    String store = System.getProperty("javax.net.ssl.trustStore");
    if (t == null || !java.util.Objects.equals(t.storeProperty, store)) { // a changed property is read again
      synchronized (TlsTrust.class) {
        t = system;
        if (t == null || !java.util.Objects.equals(t.storeProperty, store)) {
          t = new TlsTrust(SYSTEM_BUNDLES.stream().filter(Files::isReadable).findFirst().orElse(null));
          system = t;
        }
      }
    }
    return t;
  }

  /**
   * The JVM's trust store and the CA bundle {@code bundle} (PEM, any number of certificates) instead of the system's
   * (tests: a CA made for the run stands in for the system bundle); null for none.
   */
  public static TlsTrust withBundle(Path bundle) {
    return new TlsTrust(bundle);
  }

  /**
   * A client {@link SSLContext} with this trust and the JDK's TLS versions and suites (TLS 1.3 and 1.2); its client
   * session cache keeps sessions per host and port, so an engine made with {@code createSSLEngine(host, port)} resumes.
   */
  public SSLContext context() {
    return context;
  }

  /**
   * The system CA bundle's trust manager alone (empty when the host has none), for aliyun-sdk-oss: its
   * {@code ClientConfiguration.setX509TrustManagers} adds these to the JVM's default trust store it always consults.
   */
  public X509TrustManager[] bundleTrustManagers() {
    return bundle == null ? new X509TrustManager[0] : new X509TrustManager[] {bundle};
  }

  /** Both stores as one trust manager. */
  X509ExtendedTrustManager trustManager() {
    return composite;
  }

  /**
   * A client engine for {@code host:port} with this trust ({@link TlsEngines}: BoringSSL when it loads, else the
   * JDK's), the host name checked and the session cache shared with every engine made here.
   *
   * @param host a host name, or an IP address literal without brackets
   */
  public SSLEngine clientEngine(String host, int port) {
    TlsEngines e = engines;
    if (e == null) {
      synchronized (this) {
        e = engines;
        if (e == null) {
          e = new TlsEngines(this);
          engines = e;
        }
      }
    }
    return e.client(host, port);
  }

  /** The engine new connections get: "BoringSSL" or "JDK". */
  public String engineProvider() {
    release(clientEngine("localhost", 443)); // makes the engines once; the probe engine is freed at once
    return engines.provider();
  }

  /** Frees an engine's native state when the connection it served is closed. */
  public static void release(SSLEngine engine) {
    TlsEngines.release(engine);
  }

  /** Certificate chains verified so far (one per full handshake; resumed sessions verify none). */
  public long fullHandshakes() {
    return verified.get();
  }

  /** What is trusted, for error messages: "the JVM trust store (PATH) and the system CA bundle (PATH)". */
  public String describe() {
    return "the JVM trust store (" + jvmStore + ", javax.net.ssl.trustStore)"
        + (bundlePath == null ? " (no system CA bundle found in " + SYSTEM_BUNDLES + ")"
            : " and the system CA bundle (" + bundlePath + ")");
  }

  private static X509ExtendedTrustManager bundleManager(Path pem) throws GeneralSecurityException, IOException {
    Collection<? extends Certificate> certs;
    try (InputStream in = Files.newInputStream(pem)) {
      certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
    }
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    int i = 0;
    for (Certificate c : certs) {
      ks.setCertificateEntry("ca-" + i++, c);
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    return extended(tmf.getTrustManagers());
  }

  private static X509ExtendedTrustManager extended(TrustManager[] tms) {
    for (TrustManager tm : tms) {
      if (tm instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new IllegalStateException("the JDK's trust manager factory gave no X509ExtendedTrustManager");
  }

  /** One check against each store in turn: accepted when either accepts, else both reasons in one exception. */
  private interface Check {
    void run(X509ExtendedTrustManager tm) throws CertificateException;
  }

  private void check(Check c) throws CertificateException {
    List<String> reasons = new ArrayList<>(2);
    CertificateException first = null;
    for (X509ExtendedTrustManager tm : bundle == null ? List.of(jvm) : List.of(jvm, bundle)) {
      try {
        c.run(tm);
        verified.incrementAndGet();
        return;
      } catch (CertificateException e) {
        first = first == null ? e : first;
        String r = String.valueOf(e.getMessage());
        if (!reasons.contains(r)) {
          reasons.add(r);
        }
      }
    }
    throw new CertificateException("server certificate not accepted by " + describe() + ": "
        + String.join("; ", reasons), first);
  }

  /** The client side of both stores; the server side is never used (ossgw presents no server certificate). */
  private final class Composite extends X509ExtendedTrustManager {
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      check(tm -> tm.checkServerTrusted(chain, authType, engine));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      check(tm -> tm.checkServerTrusted(chain, authType, socket));
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      check(tm -> tm.checkServerTrusted(chain, authType));
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("ossgw does not accept TLS clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("ossgw does not accept TLS clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("ossgw does not accept TLS clients");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      List<X509Certificate> all = new ArrayList<>(List.of(jvm.getAcceptedIssuers()));
      if (bundle != null) {
        all.addAll(List.of(bundle.getAcceptedIssuers()));
      }
      return all.toArray(X509Certificate[]::new);
    }
  }
}
