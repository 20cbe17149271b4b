package io.ossgw.core.store.lean;

import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.aliyun.OssErrors;
import io.ossgw.core.store.tls.TlsErrors;
import io.ossgw.core.store.tls.TlsTrust;
import io.ossgw.core.util.Crc64;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLEngine;

/**
 * The HTTP/1.1 exchanges of the lean data path: one signed request, its body, its response head, and the mapping of
 * an error reply or a transport failure to a {@link StoreException} with the kinds {@link OssErrors} gives the SDK's
 * (OSS error code first; any other 5xx or 429 is transient; I/O failures and timeouts are transient
 * {@code ConnectionError}s, so {@link io.ossgw.core.store.RetryingObjectStore} retries them).
 *
 * <p>Addressing follows aliyun-sdk-oss as ossgw configures it (reference/oss-api.md §2.1): path style
 * ({@code /bucket/key}) for an IP or {@code localhost} endpoint, virtual-hosted ({@code Host: bucket.endpoint}) for a
 * host name. {@code http://} endpoints go over plain TCP, {@code https://} ones over TLS ({@link TlsChannel} with an
 * {@link SSLEngine} from {@link TlsTrust#clientEngine}: BoringSSL or the JDK's, trusting the JVM's trust store and the
 * system CA bundle, the host name checked as RFC 2818 says, sessions resumed from a shared client cache).
 *
 * <p>Bodies: a spool-file range ({@link ContentSource.FileRange}) is either read in 256 KiB chunks into a pooled
 * direct buffer, CRC-64'd and written from it ({@link BodyMode#COPY}), or CRC-64'd through a memory mapping and sent
 * with sendfile ({@link BodyMode#SENDFILE}, plain connections only); a range that carries its CRC-64 ({@link
 * ContentSource.FileRange#crc64()}: a streamed part, CRC'd as the application wrote it) goes with sendfile on a plain
 * connection in either mode, checked against that CRC; over TLS, which must encrypt in user space, such a range is
 * encrypted straight from a read-only mapping of it (no pread copy, no CRC pass). Other
 * bodies are read from their stream. The CRC-64 of what was sent is returned for the caller to check against {@code
 * x-oss-hash-crc64ecma}.
 */
final class LeanOssClient implements AutoCloseable {
  /** How a spool-file body goes to the socket. */
  enum BodyMode {
    /** pread into a pooled direct chunk, CRC-64 it, write it: one user-space copy. */
    COPY,
    /** CRC-64 over a read-only mapping, then sendfile: no user-space copy of the bytes. */
    SENDFILE
  }

  static final int CHUNK = 256 * 1024;
  private static final int SENDFILE_SLICE = 4 << 20;
  private static final int MAX_ERROR_BODY = 64 * 1024;
  private static final ConcurrentLinkedQueue<ByteBuffer> CHUNKS = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger DIRECT_CHUNKS = new AtomicInteger();
  private static final int MAX_DIRECT_CHUNKS = 32;

  private final String bucket;
  private final boolean pathStyle;
  private final String hostHeader;
  private final OssV4Signer signer;
  private final String securityToken;
  private final ConnectionPool pool;
  private final BodyMode bodyMode;
  private final String endpoint;
  private final TlsTrust trust;

  /**
   * @param endpoint {@code http://host[:port]} or {@code https://host[:port]}
   * @param bucket the bucket
   * @param signer the V4 signer with the credentials
   * @param securityToken STS token sent as {@code x-oss-security-token}, or null
   * @param maxConnections connections in use at once
   * @param connectTimeoutMillis TCP connect timeout
   * @param timeoutMillis read/write inactivity timeout
   * @param bodyMode how spool-file bodies are sent
   */
  LeanOssClient(String endpoint, String bucket, OssV4Signer signer, String securityToken, int maxConnections,
      int connectTimeoutMillis, long timeoutMillis, BodyMode bodyMode) {
    this(endpoint, bucket, signer, securityToken, maxConnections, connectTimeoutMillis, timeoutMillis, bodyMode, null,
        null);
  }

  /**
   * As above; {@code connectTo}, when not null, is the address connected to instead of the resolved request host
   * (tests: a virtual-hosted request to a loopback emulator without DNS for {@code bucket.host}); {@code trust} is
   * whom an {@code https://} endpoint may be ({@link TlsTrust#system()} when null).
   */
  LeanOssClient(String endpoint, String bucket, OssV4Signer signer, String securityToken, int maxConnections,
      int connectTimeoutMillis, long timeoutMillis, BodyMode bodyMode, String connectTo, TlsTrust trust) {
    URI uri = URI.create(endpoint);
    String host = uri.getHost();
    boolean https = "https".equalsIgnoreCase(uri.getScheme());
    if (host == null || !(https || "http".equalsIgnoreCase(uri.getScheme()))) {
      throw new IllegalArgumentException("not an http:// or https:// endpoint: " + endpoint);
    }
    int port = uri.getPort() < 0 ? (https ? 443 : 80) : uri.getPort();
    this.endpoint = endpoint;
    this.bucket = bucket;
    this.pathStyle = isIpOrLocalhost(host);
    String requestHost = pathStyle ? host : bucket + "." + host;
    this.hostHeader = (requestHost.contains(":") ? "[" + requestHost + "]" : requestHost)
        + (uri.getPort() < 0 ? "" : ":" + port);
    this.signer = signer;
    this.securityToken = securityToken;
    this.bodyMode = https ? BodyMode.COPY : bodyMode;
    this.trust = https ? (trust != null ? trust : TlsTrust.system()) : null;
    String peer = requestHost.startsWith("[") ? requestHost.substring(1, requestHost.length() - 1) : requestHost;
    this.pool = new ConnectionPool(connectTo != null ? connectTo : requestHost, port, maxConnections,
        connectTimeoutMillis, timeoutMillis, 60_000, 60_000, https ? () -> engine(this.trust, peer, port) : null);
  }

  /**
   * A client engine for {@code host:port}: made with the peer's name and port so the session cache can resume an
   * earlier session with it (RFC 8446 §2.2), the server name sent for a host name (SNI, RFC 6066 §3), and the
   * certificate's names checked against the host (endpoint identification {@code HTTPS}, RFC 2818 §3.1).
   */
  static SSLEngine engine(TlsTrust trust, String host, int port) {
    return trust.clientEngine(host, port);
  }

  /** The endpoint's trust for {@code https://}, or null for {@code http://}. */
  TlsTrust trust() {
    return trust;
  }

  /** As the SDK decides path style: an IPv4/IPv6 literal or {@code localhost}. */
  static boolean isIpOrLocalhost(String host) {
    return host.equalsIgnoreCase("localhost") || host.contains(":") || host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")
        || host.startsWith("[");
  }

  ConnectionPool pool() {
    return pool;
  }

  /** What the caller does with a successful (2xx) response: read its body and build the result. */
  interface Reader<T> {
    /**
     * @param crcSent the CRC-64 of the request body sent, or null without a body
     */
    T read(HttpConnection c, HttpConnection.Response r, Long crcSent) throws IOException;
  }

  /**
   * Sends one request and returns what {@code reader} makes of a 2xx reply. A request on a reused keep-alive
   * connection that fails before any reply byte is sent once more on a new connection (the server may have closed an
   * idle connection as we picked it).
   *
   * @param body the request body, or null for none
   * @throws StoreException for error replies and transport failures
   */
  <T> T exchange(String method, String key, Map<String, String> query, Map<String, String> headers,
      ContentSource body, Reader<T> reader, String what) {
    return exchange(method, key, query, headers, body, reader, what, true);
  }

  /**
   * As above; with {@code resendOnStale} false a request that met a stale keep-alive connection is not sent again
   * here but fails as a transient transport error, so the caller's retry layer sees an attempt whose outcome is unknown
   * (for requests that must not silently run twice: InitiateMultipartUpload would leave a second upload,
   * CompleteMultipartUpload answer NoSuchUpload for an object it made; see LostInitiateReplies, LostCompleteReplies).
   */
  <T> T exchange(String method, String key, Map<String, String> query, Map<String, String> headers,
      ContentSource body, Reader<T> reader, String what, boolean resendOnStale) {
    long length = body == null ? 0 : body.length();
    byte[] head = head(method, key, query, headers, body == null ? -1 : length);
    boolean headOnly = method.equals("HEAD");
    for (int attempt = 0; ; attempt++) {
      HttpConnection c;
      try {
        c = pool.acquire(attempt > 0);
      } catch (IOException e) {
        StoreException tlsFailure = TlsErrors.classify(e, endpoint, what);
        throw tlsFailure != null ? tlsFailure : transport(what, e);
      }
      boolean reused = c.requests > 0;
      boolean ok = false;
      boolean replied = false;
      try {
        Long crc = body == null ? null : 0L;
        HttpConnection.Response r;
        try {
          c.write(ByteBuffer.wrap(head));
          if (length > 0) {
            crc = sendBody(c, body);
          }
          r = c.readHead();
        } catch (IOException e) {
          // the server may have answered (an error) before taking the whole body: use that answer if it is there
          try {
            r = c.readHead();
          } catch (IOException | RuntimeException ignored) {
            throw e;
          }
        }
        replied = true;
        if (r.status() / 100 != 2) {
          byte[] xml = new byte[0];
          if (headOnly) {
            ok = !r.close(); // a HEAD reply has no body whatever its Content-Length says
          } else {
            try {
              xml = c.readBody(r, MAX_ERROR_BODY);
              ok = !r.close();
            } catch (IOException e) {
              // the kind then comes from the status alone
            }
          }
          throw error(r, xml, what, headOnly);
        }
        T result = reader.read(c, r, crc);
        ok = !r.close();
        return result;
      } catch (IOException e) {
        if (c.timedOut) {
          throw new StoreException(StoreErrorKind.TRANSIENT, "SocketTimeout", 0, null,
              what + ": no progress within the read/write timeout", e);
        }
        if (resendOnStale && reused && !replied && attempt == 0) {
          continue; // a stale keep-alive connection: once more on a fresh one
        }
        throw transport(what, e);
      } catch (StoreException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new StoreException(StoreErrorKind.OTHER, "MalformedResponse", 0, null, what + ": " + e, e);
      } finally {
        pool.release(c, ok);
      }
    }
  }

  private byte[] head(String method, String key, Map<String, String> query, Map<String, String> headers, long length) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    String dateTime = OssV4Signer.dateTime(System.currentTimeMillis() / 1000);
    h.put("x-oss-date", dateTime);
    h.put("x-oss-content-sha256", "UNSIGNED-PAYLOAD");
    if (securityToken != null) {
      h.put("x-oss-security-token", securityToken);
    }
    String auth = signer.authorization(method, bucket, key, query, h, dateTime);
    StringBuilder sb = new StringBuilder(512);
    sb.append(method).append(' ').append('/');
    if (pathStyle) {
      sb.append(bucket).append('/');
    }
    OssV4Signer.encode(sb, key, true);
    String sep = "?";
    for (Map.Entry<String, String> q : query.entrySet()) {
      sb.append(sep);
      OssV4Signer.encode(sb, q.getKey(), false);
      if (q.getValue() != null && !q.getValue().isEmpty()) {
        OssV4Signer.encode(sb.append('='), q.getValue(), false);
      }
      sep = "&";
    }
    sb.append(" HTTP/1.1\r\nHost: ").append(hostHeader).append("\r\n");
    if (length >= 0) {
      sb.append("Content-Length: ").append(length).append("\r\n");
    }
    h.forEach((k, v) -> sb.append(k).append(": ").append(v).append("\r\n"));
    sb.append("Authorization: ").append(auth).append("\r\n\r\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Writes the body and returns the CRC-64 of the bytes written. */
  private long sendBody(HttpConnection c, ContentSource body) throws IOException {
    if (body instanceof ContentSource.FileRange f) {
      if (f.crc64() != null) { // CRC known from the writes: no read-back, no 2nd pass
        if (c.secure()) { // TLS encrypts in user space: from the page cache, without a pread copy
          return encryptMapped(c, f);
        }
        c.transferFrom(f.channel(), f.position(), f.length());
        return f.crc64();
      }
      return bodyMode == BodyMode.SENDFILE ? sendfile(c, f) : copy(c, f);
    }
    if (body instanceof ContentSource.Buffers m) { // a file staged in memory: CRC-64 and write the buffers, no copy
      long crc = 0;
      for (ByteBuffer b : m.duplicates()) {
        crc = Crc64.update(crc, b.duplicate());
        c.write(b);
      }
      return crc;
    }
    long crc = 0;
    long left = body.length();
    byte[] buf = new byte[(int) Math.min(64 * 1024, left)];
    try (InputStream in = body.openStream()) {
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        if (n < 0) {
          throw new IOException("body shorter than its length " + body.length());
        }
        crc = Crc64.update(crc, buf, 0, n);
        c.write(ByteBuffer.wrap(buf, 0, n));
        left -= n;
      }
    }
    return crc;
  }

  private static long copy(HttpConnection c, ContentSource.FileRange f) throws IOException {
    ByteBuffer chunk = takeChunk();
    try {
      long crc = 0;
      long pos = f.position();
      long end = pos + f.length();
      while (pos < end) {
        chunk.clear().limit((int) Math.min(chunk.capacity(), end - pos));
        while (chunk.hasRemaining()) {
          if (f.channel().read(chunk, pos + chunk.position()) < 0) {
            throw new IOException("staged file shorter than expected at offset " + (pos + chunk.position()));
          }
        }
        chunk.flip();
        crc = Crc64.update(crc, chunk);
        pos += chunk.remaining();
        c.write(chunk);
      }
      return crc;
    } finally {
      if (chunk.isDirect()) {
        CHUNKS.offer(chunk);
      }
    }
  }

  private static long sendfile(HttpConnection c, ContentSource.FileRange f) throws IOException {
    long[] crc = {0};
    mappedSlices(f, (mapping, position, length) -> {
      crc[0] = Crc64.update(crc[0], mapping);
      c.transferFrom(f.channel(), position, length);
    });
    return crc[0];
  }

  /**
   * Sends a spool range whose CRC-64 its writer computed ({@link ContentSource.FileRange#crc64()}, a streamed part)
   * over TLS from a read-only mapping of it, {@value #SENDFILE_SLICE} bytes at a time: the engine encrypts the
   * page-cache pages themselves (BoringSSL reads a direct buffer in place), so the bytes are neither copied into a
   * chunk nor read a second time for their CRC, which is returned as the sendfile path returns it (checked against
   * OSS's by the caller). Each mapping is unmapped when its slice is sent ({@link #mappedSlices}). A range without
   * its CRC goes through {@link #copy}: a CRC pass over a 4 MiB mapping and then the cipher over it again reads it from
   * memory twice, which measured no better than the copy into a cache-sized chunk (docs/benchmarks.md, "The TLS
   * floor").
   *
   * <p>The range must not shrink while it is sent (a mapped page past the end faults, in native code a crash): the
   * file's owner keeps a part's bytes until its upload ends ({@link io.ossgw.core.write.StreamingUpload}), and the size
   * is checked first.
   *
   * @return the writer's CRC-64 of the range
   * @throws IOException when the file is shorter than the range or the connection fails
   */
  private static long encryptMapped(HttpConnection c, ContentSource.FileRange f) throws IOException {
    mappedSlices(f, (mapping, position, length) -> c.write(mapping));
    return f.crc64();
  }

  /** What is done with one read-only mapped slice of a spool range ({@link #mappedSlices}). */
  private interface MappedSlice {
    void accept(ByteBuffer mapping, long position, long length) throws IOException;
  }

  /**
   * Maps {@code f} read-only {@value #SENDFILE_SLICE} bytes at a time and hands each slice to {@code each}, unmapping
   * it when {@code each} returns (a confined {@link Arena}).
   *
   * @throws IOException when the file is shorter than the range (checked before any mapping: mapping past the end of a
   *     read-write channel would grow the file) or {@code each} fails
   */
  private static void mappedSlices(ContentSource.FileRange f, MappedSlice each) throws IOException {
    long pos = f.position();
    long end = pos + f.length();
    if (f.channel().size() < end) {
      throw new IOException("staged file shorter than expected: " + f.channel().size() + " < " + end);
    }
    while (pos < end) {
      long n = Math.min(SENDFILE_SLICE, end - pos);
      try (Arena arena = Arena.ofConfined()) {
        each.accept(f.channel().map(FileChannel.MapMode.READ_ONLY, pos, n, arena).asByteBuffer(), pos, n);
      }
      pos += n;
    }
  }

  private static ByteBuffer takeChunk() {
    ByteBuffer c = CHUNKS.poll();
    if (c != null) {
      return c;
    }
    if (DIRECT_CHUNKS.incrementAndGet() <= MAX_DIRECT_CHUNKS) {
      return ByteBuffer.allocateDirect(CHUNK);
    }
    DIRECT_CHUNKS.decrementAndGet();
    return ByteBuffer.allocate(CHUNK);
  }

  /**
   * An error reply as a StoreException: the OSS code from the XML body decides the kind, as for the SDK. A HEAD reply
   * has no body: its error XML travels base64-encoded in {@code x-oss-err} (reference/oss-api.md §2.3), and without
   * that header a 404 is {@code NoSuchKey}, as aliyun-sdk-oss reads it.
   */
  private static StoreException error(HttpConnection.Response r, byte[] body, String what, boolean headOnly) {
    String xml = new String(body, StandardCharsets.UTF_8);
    String err = r.header("x-oss-err");
    if (xml.isEmpty() && err != null) {
      try {
        xml = new String(java.util.Base64.getDecoder().decode(err.strip()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        xml = ""; // not base64: the status decides below
      }
    }
    String code = element(xml, "Code");
    String requestId = r.header("x-oss-request-id");
    if (code == null) {
      code = headOnly && r.status() == 404 ? "NoSuchKey" : "HttpStatus" + r.status();
    }
    StoreErrorKind kind = OssErrors.kindOf(code);
    if (kind == StoreErrorKind.OTHER && (r.status() >= 500 || r.status() == 429)) {
      kind = StoreErrorKind.TRANSIENT;
    }
    String message = element(xml, "Message");
    return new StoreException(kind, code, r.status(), requestId,
        what + ": " + code + " (" + (message == null ? "HTTP " + r.status() : message) + ", request " + requestId + ")",
        null);
  }

  private static String element(String xml, String name) {
    int a = xml.indexOf("<" + name + ">");
    int b = a < 0 ? -1 : xml.indexOf("</" + name + ">", a);
    return b < 0 ? null : xml.substring(a + name.length() + 2, b).strip();
  }

  private static StoreException transport(String what, IOException e) {
    return new StoreException(StoreErrorKind.TRANSIENT, "ConnectionError", 0, null, what + ": " + e, e);
  }

  @Override
  public void close() {
    pool.close();
  }
}
