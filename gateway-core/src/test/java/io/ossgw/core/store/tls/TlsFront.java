package io.ossgw.core.store.tls;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

/**
 * Tests' TLS terminator in front of a plain-HTTP emulator (what stunnel does in the e2e tests and the benchmarks, in
 * process): a JSSE server socket on 127.0.0.1 with a certificate issued by a CA made for the run ({@link #makePki}
 * with the JDK's keytool), every connection's bytes piped to {@code backendPort}. Counts the connections it accepted
 * (each a TLS handshake, full or resumed).
 */
public final class TlsFront implements AutoCloseable {
  private final SSLServerSocket server;
  private final int backendPort;
  private final AtomicInteger accepted = new AtomicInteger();
  private final List<Socket> open = new ArrayList<>();
  private volatile boolean closed;

  /**
   * @param keystore PKCS12 with the server's key and certificate chain (password {@code changeit})
   * @param backendPort the emulator's plain-HTTP port on 127.0.0.1
   */
  public TlsFront(Path keystore, int backendPort) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(keystore.toFile())) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    this.backendPort = backendPort;
    this.server = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket(0, 64,
        InetAddress.getLoopbackAddress());
    Thread.ofPlatform().daemon().name("tls-front").start(this::accept);
  }

  /** The {@code https://127.0.0.1:PORT} endpoint. */
  public String endpoint() {
    return "https://127.0.0.1:" + server.getLocalPort();
  }

  /** Connections accepted so far: one TLS handshake each. */
  public int accepted() {
    return accepted.get();
  }

  private void accept() {
    while (!closed) {
      try {
        SSLSocket s = (SSLSocket) server.accept();
        accepted.incrementAndGet();
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(SSLSocket s) {
    try (s; Socket b = new Socket()) {
      synchronized (open) {
        open.add(s);
      }
      s.startHandshake();
      b.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), backendPort));
      Thread up = Thread.ofVirtual().start(() -> pipe(s, b));
      pipe(b, s);
      up.join(TimeUnit.SECONDS.toMillis(60));
    } catch (IOException | InterruptedException e) {
      // a client that failed the handshake (untrusted certificate) ends here
    }
  }

  private static void pipe(Socket from, Socket to) {
    byte[] buf = new byte[64 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      int n;
      while ((n = in.read(buf)) > 0) {
        out.write(buf, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // the other side closed
    } finally {
      try {
        to.shutdownOutput();
      } catch (IOException | UnsupportedOperationException e) {
        try {
          to.close();
        } catch (IOException ignored) {
          // closing
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    synchronized (open) {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  /** What {@link #makePki} made: a CA and server key stores signed by it (PKCS12, password {@code changeit}). */
  public record Pki(Path caPem, Path caTrustStore, Path server, Path wrongName) {}

  /**
   * A CA made for the run and two server certificates it issued (EC P-256, valid 2 days): {@code server} names
   * 127.0.0.1 and localhost, {@code wrongName} only {@code wrong.example}. Made with the JDK's own keytool.
   */
  public static Pki makePki(Path dir) throws Exception {
    Files.createDirectories(dir);
    keytool(dir, "-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=ossgw test CA", "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12");
    keytool(dir, "-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem");
    keytool(dir, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "trust.p12");
    for (String[] s : new String[][] {{"server", "san=ip:127.0.0.1,dns:localhost"}, {"wrong", "san=dns:wrong.example"}}) {
      String ks = s[0] + ".p12";
      keytool(dir, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
          "CN=" + s[0], "-validity", "2", "-keystore", ks);
      keytool(dir, "-certreq", "-alias", "server", "-keystore", ks, "-file", s[0] + ".csr");
      keytool(dir, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", s[0] + ".csr", "-outfile",
          s[0] + ".pem", "-rfc", "-ext", s[1], "-ext", "eku=serverAuth", "-validity", "2");
      keytool(dir, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", ks);
      keytool(dir, "-importcert", "-noprompt", "-alias", "server", "-file", s[0] + ".pem", "-keystore", ks);
    }
    return new Pki(dir.resolve("ca.pem"), dir.resolve("trust.p12"), dir.resolve("server.p12"),
        dir.resolve("wrong.p12"));
  }

  private static void keytool(Path dir, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storepass", "changeit", "-storetype", "PKCS12"));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + out);
    }
  }
}
