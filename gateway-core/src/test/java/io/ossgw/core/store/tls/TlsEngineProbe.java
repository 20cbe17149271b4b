package io.ossgw.core.store.tls;

import java.io.FileInputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;

/**
 * CPU of a TLS engine per GiB encrypted (client wrap) and decrypted (client unwrap), engine to engine in memory (no
 * socket): {@code java -cp ... TlsEngineProbe SERVER.p12 TRUST.p12 jdk|openssl MIB}. The server side is the JDK's; only
 * the client thread's CPU is counted.
 */
public final class TlsEngineProbe {
  public static void main(String[] a) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (FileInputStream in = new FileInputStream(a[0])) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext sctx = SSLContext.getInstance("TLS");
    sctx.init(kmf.getKeyManagers(), null, null);
    System.setProperty("javax.net.ssl.trustStore", a[1]);
    System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
    TlsTrust trust = TlsTrust.withBundle(null);
    long size = Long.parseLong(a[3]) << 20;
    for (int round = 0; round < 4; round++) {
      System.setProperty("io.ossgw.tls.engine", a[2]);
      SSLEngine c = trust.clientEngine("127.0.0.1", 443);
      SSLEngine s = sctx.createSSLEngine();
      s.setUseClientMode(false);
      ByteBuffer c2s = ByteBuffer.allocateDirect(1 << 20);
      ByteBuffer s2c = ByteBuffer.allocateDirect(1 << 20);
      ByteBuffer app = ByteBuffer.allocateDirect(1 << 20);
      handshake(c, s, c2s, s2c, app);
      // what is still in flight after the handshake (TLS 1.3 NewSessionTicket) must arrive: records are numbered
      for (int i = 0; i < 3; i++) {
        s2c.flip();
        while (s2c.hasRemaining()) {
          app.clear();
          c.unwrap(s2c, app);
        }
        s2c.clear();
        c2s.flip();
        while (c2s.hasRemaining()) {
          app.clear();
          s.unwrap(c2s, app);
        }
        c2s.clear();
        step(c, ByteBuffer.allocate(0), c2s, s2c, app);
        step(s, ByteBuffer.allocate(0), s2c, c2s, app);
      }
      var th = ManagementFactory.getThreadMXBean();
      ByteBuffer plain = ByteBuffer.allocateDirect(256 << 10);
      // client encrypts, server decrypts
      long wrapNs = 0, unwrapNs = 0;
      for (long done = 0; done < size; done += plain.capacity()) {
        plain.clear();
        long t0 = th.getCurrentThreadCpuTime();
        while (plain.hasRemaining()) {
          c2s.clear();
          SSLEngineResult r = c.wrap(plain, c2s);
          if (r.getStatus() != SSLEngineResult.Status.OK) {
            throw new IllegalStateException("wrap " + r);
          }
          c2s.flip();
          long t1 = th.getCurrentThreadCpuTime();
          wrapNs += t1 - t0;
          while (c2s.hasRemaining()) {
            app.clear();
            s.unwrap(c2s, app);
          }
          t0 = th.getCurrentThreadCpuTime();
        }
      }
      // server encrypts records, client decrypts
      ByteBuffer src = ByteBuffer.allocateDirect(16 << 10);
      ByteBuffer dst = ByteBuffer.allocateDirect(4 << 20);
      for (long done = 0; done < size; ) {
        s2c.clear();
        while (s2c.remaining() > 20_000 && done < size) {
          src.clear();
          s.wrap(src, s2c);
          done += src.capacity();
        }
        s2c.flip();
        long t0 = th.getCurrentThreadCpuTime();
        while (s2c.hasRemaining()) {
          if (dst.remaining() < 20_000) {
            dst.clear();
          }
          SSLEngineResult r = c.unwrap(s2c, dst);
          if (r.getStatus() != SSLEngineResult.Status.OK) {
            throw new IllegalStateException("unwrap " + r);
          }
        }
        unwrapNs += th.getCurrentThreadCpuTime() - t0;
      }
      double gib = (double) size / (1L << 30);
      System.out.printf(Locale.ROOT, "TLSPROBE %s %s round %d: encrypt %.2f CPU-s/GiB, decrypt %.2f CPU-s/GiB, load %.1f%n",
          a[2], c.getSession().getCipherSuite(), round + 1, wrapNs / 1e9 / gib, unwrapNs / 1e9 / gib,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  private static void handshake(SSLEngine c, SSLEngine s, ByteBuffer c2s, ByteBuffer s2c, ByteBuffer app)
      throws Exception {
    c.beginHandshake();
    s.beginHandshake();
    ByteBuffer empty = ByteBuffer.allocate(0);
    for (int i = 0; i < 200; i++) {
      boolean cDone = done(c), sDone = done(s);
      if (cDone && sDone) {
        return;
      }
      step(c, empty, c2s, s2c, app);
      step(s, empty, s2c, c2s, app);
    }
    throw new IllegalStateException("no handshake: " + c.getHandshakeStatus() + " / " + s.getHandshakeStatus());
  }

  private static boolean done(SSLEngine e) {
    var h = e.getHandshakeStatus();
    return h == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING || h == SSLEngineResult.HandshakeStatus.FINISHED;
  }

  /** One step of engine e: out is what it writes (write mode), in what it reads (write mode, flipped here). */
  private static void step(SSLEngine e, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer app)
      throws Exception {
    switch (e.getHandshakeStatus()) {
      case NEED_TASK -> {
        Runnable t;
        while ((t = e.getDelegatedTask()) != null) {
          t.run();
        }
      }
      case NEED_WRAP -> e.wrap(empty, out);
      case NEED_UNWRAP -> {
        in.flip();
        app.clear();
        e.unwrap(in, app);
        in.compact();
      }
      default -> { }
    }
  }
}
