package io.ossgw.core.store.lean;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLEngine;

/**
 * One blocking HTTP/1.1 keep-alive connection on a {@link SocketChannel}, plain or through TLS ({@link TlsChannel}): a
 * request head written from a heap buffer, bodies written from (direct) buffers or, plain only, with {@link
 * FileChannel#transferTo} (sendfile), a response head parsed from a per-connection direct buffer, and bodies read
 * straight into the caller's buffer (over TLS: decrypted into it).
 *
 * <p>Blocking channel I/O has no timeout of its own: before each blocking call the connection records a deadline
 * ({@link #deadlineNanos}), and {@link ConnectionPool}'s reaper closes a connection whose call has made no progress
 * past it, which fails the call with an {@link IOException} (readwrite_timeout as an inactivity timeout, as the SDK's
 * socket timeout is). Not thread-safe: one request at a time, handed out by the pool.
 */
final class HttpConnection implements AutoCloseable {
  /** Largest response head accepted (status line and headers; OSS caps an object's user metadata at 8 KB). */
  static final int MAX_HEAD = 16 * 1024;
  /** Largest single read into a heap buffer. */
  static final int HEAP_SLICE = 256 * 1024;
  /** Bytes sent by a blocking write when sendfile finds the socket full (see {@link #transferFrom}). */
  static final int NUDGE = 4096;

  private final SocketChannel socket;
  /** What requests and replies go through: the socket itself, or TLS over it. */
  private final ByteChannel channel;
  private final TlsChannel tls;
  private final long timeoutNanos;
  /** Response bytes read past the current head/body: [position, limit) are unread. */
  private final ByteBuffer in = ByteBuffer.allocateDirect(MAX_HEAD).flip();
  /** Deadline of the blocking call in progress, or 0 when idle. */
  volatile long deadlineNanos;
  /** When the connection went back to the pool (for idle eviction). */
  long idleSince;
  /** Requests this connection has carried (keep-alive reuse is visible in tests). */
  int requests;
  /** The buffer of {@link #nudge}, made on first use (heap: no direct memory per pooled connection). */
  private ByteBuffer nudge;
  /** Set when the reaper closed the connection for passing its deadline. */
  volatile boolean timedOut;

  private HttpConnection(SocketChannel socket, SSLEngine engine, long timeoutNanos) {
    this.socket = socket;
    this.timeoutNanos = timeoutNanos;
    this.tls = engine == null ? null : new TlsChannel(socket, engine, this::arm);
    this.channel = tls == null ? socket : tls;
  }

  /**
   * Opens a TCP connection to {@code address} within {@code connectTimeoutMillis}; with an {@code engine}, requests
   * go through TLS once {@link #handshake} has run.
   */
  static HttpConnection open(InetSocketAddress address, int connectTimeoutMillis, long timeoutNanos, SSLEngine engine)
      throws IOException {
    SocketChannel ch = SocketChannel.open();
    try {
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
      ch.socket().connect(address, connectTimeoutMillis);
      return new HttpConnection(ch, engine, timeoutNanos);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /**
   * The TLS handshake of a TLS connection (nothing for a plain one), under the read/write deadline.
   *
   * @throws javax.net.ssl.SSLHandshakeException when the server's certificate or name is not accepted
   */
  void handshake() throws IOException {
    if (tls != null) {
      try {
        tls.handshake();
      } finally {
        deadlineNanos = 0;
      }
    }
  }

  /** Whether this connection runs TLS. */
  boolean secure() {
    return tls != null;
  }

  boolean isOpen() {
    return socket.isOpen();
  }

  private void arm() {
    deadlineNanos = System.nanoTime() + timeoutNanos;
  }

  /** Writes all of {@code buf}. */
  void write(ByteBuffer buf) throws IOException {
    while (buf.hasRemaining()) {
      arm();
      channel.write(buf);
    }
    deadlineNanos = 0;
  }

  /**
   * Sends {@code [position, position+length)} of {@code file} with sendfile (plain connections only).
   *
   * <p>On a virtual thread the socket is non-blocking underneath, so sendfile returns 0 once the socket's send buffer
   * is full, and calling it again would spin. Then a small piece ({@value #NUDGE} bytes) goes by an ordinary blocking
   * write, which parks the thread until the socket takes bytes again, and sendfile goes on from there.
   */
  void transferFrom(FileChannel file, long position, long length) throws IOException {
    if (tls != null) {
      throw new IllegalStateException("sendfile on a TLS connection");
    }
    long end = position + length;
    while (position < end) {
      arm();
      long n = file.transferTo(position, Math.min(end - position, 8L << 20), socket);
      if (n <= 0) {
        if (file.size() < end) {
          throw new EOFException("staged file shorter than expected at offset " + position);
        }
        n = nudge(file, position, (int) Math.min(NUDGE, end - position));
      }
      position += n;
    }
    deadlineNanos = 0;
  }

  /** Reads {@code len} bytes of {@code file} at {@code position} and writes them with a blocking write; returns len. */
  private int nudge(FileChannel file, long position, int len) throws IOException {
    if (nudge == null) {
      nudge = ByteBuffer.allocate(NUDGE);
    }
    nudge.clear().limit(len);
    while (nudge.hasRemaining()) {
      if (file.read(nudge, position + nudge.position()) < 0) {
        throw new EOFException("staged file shorter than expected at offset " + (position + nudge.position()));
      }
    }
    write(nudge.flip());
    return len;
  }

  /** Reads and parses a response head; the body, if any, follows in {@link #readBody}/{@link #readBodyInto}. */
  Response readHead() throws IOException {
    int scanned = 0;
    while (true) {
      int end = headEnd(scanned);
      if (end >= 0) {
        return parse(end);
      }
      scanned = Math.max(0, in.remaining() - 3);
      if (!fill()) {
        throw new EOFException(in.remaining() == 0 ? "connection closed before a response"
            : "connection closed inside the response head");
      }
    }
  }

  /** Index (relative to position) just past the blank line ending the head, or -1. */
  private int headEnd(int from) {
    int p = in.position();
    for (int i = from; i + 3 < in.remaining(); i++) {
      if (in.get(p + i) == '\r' && in.get(p + i + 1) == '\n' && in.get(p + i + 2) == '\r' && in.get(p + i + 3) == '\n') {
        return i + 4;
      }
    }
    return -1;
  }

  /** Reads more response bytes after the unread ones; false at end of stream. */
  private boolean fill() throws IOException {
    if (in.position() > 0) {
      in.compact().flip();
    }
    if (in.limit() == in.capacity()) {
      throw new IOException("response head longer than " + in.capacity() + " bytes");
    }
    int lim = in.limit();
    in.position(lim).limit(in.capacity());
    arm();
    int n;
    try {
      n = channel.read(in);
    } finally {
      deadlineNanos = 0;
      in.limit(in.position()).position(0);
    }
    return n >= 0;
  }

  private Response parse(int length) {
    byte[] head = new byte[length];
    in.get(head);
    String s = new String(head, StandardCharsets.ISO_8859_1);
    int eol = s.indexOf("\r\n");
    String status = s.substring(0, eol);
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IllegalStateException("not an HTTP/1.x response: " + status);
    }
    int code = Integer.parseInt(parts[1]);
    Map<String, String> headers = new HashMap<>();
    int at = eol + 2;
    while (at < length - 2) {
      int next = s.indexOf("\r\n", at);
      int colon = s.indexOf(':', at);
      if (colon > at && colon < next) {
        String name = s.substring(at, colon).strip().toLowerCase(Locale.ROOT);
        String value = s.substring(colon + 1, next).strip();
        if (!isAscii(value)) {
          value = new String(value.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        }
        headers.merge(name, value, (a, b) -> a + "," + b);
      }
      at = next + 2;
    }
    boolean close = "close".equalsIgnoreCase(headers.get("connection")) || parts[0].equals("HTTP/1.0");
    return new Response(code, headers, close);
  }

  private static boolean isAscii(String v) {
    for (int i = 0; i < v.length(); i++) {
      if (v.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads exactly {@code length} body bytes into {@code dst} (which has room for them): first what was read with the
   * head, then straight from the socket into {@code dst}.
   */
  void readBodyInto(ByteBuffer dst, long length) throws IOException {
    int want = Math.toIntExact(length);
    int target = dst.position() + want;
    if (in.hasRemaining()) {
      int n = Math.min(in.remaining(), want);
      int lim = in.limit();
      in.limit(in.position() + n);
      dst.put(in);
      in.limit(lim);
    }
    int lim = dst.limit();
    // a heap buffer is read through the JDK's per-thread temporary direct buffer, which grows to the size of each
    // read and stays cached: slices of at most HEAP_SLICE keep that small
    int slice = dst.isDirect() ? Integer.MAX_VALUE : HEAP_SLICE;
    try {
      while (dst.position() < target) {
        dst.limit((int) Math.min(target, (long) dst.position() + slice));
        arm();
        if (channel.read(dst) < 0) {
          throw new EOFException("connection closed after " + (want - (target - dst.position())) + " of " + want
              + " body bytes");
        }
      }
    } finally {
      deadlineNanos = 0;
      dst.limit(lim);
    }
  }

  /**
   * Reads a whole (small) body: by {@code Content-Length}, chunked, or to the end of the stream when neither is
   * given; at most {@code max} bytes.
   */
  byte[] readBody(Response r, int max) throws IOException {
    String te = r.header("transfer-encoding");
    if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      while (true) {
        String line = readLine();
        int semi = line.indexOf(';');
        int size = Integer.parseInt((semi < 0 ? line : line.substring(0, semi)).strip(), 16);
        if (size == 0) {
          while (!readLine().isEmpty()) {
            // trailers: ignored
          }
          return out.toByteArray();
        }
        if (out.size() + size > max) {
          throw new IOException("response body over " + max + " bytes");
        }
        ByteBuffer chunk = ByteBuffer.allocate(size);
        readBodyInto(chunk, size);
        out.write(chunk.array(), 0, size);
        readLine();
      }
    }
    long len = r.contentLength();
    if (len < 0) {
      if (!r.close()) {
        return new byte[0]; // no framing on a keep-alive reply: no body
      }
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      while (in.hasRemaining() || fill()) {
        byte[] b = new byte[in.remaining()];
        in.get(b);
        out.write(b, 0, b.length);
        if (out.size() > max) {
          throw new IOException("response body over " + max + " bytes");
        }
      }
      return out.toByteArray();
    }
    if (len > max) {
      throw new IOException("response body of " + len + " bytes, over " + max);
    }
    ByteBuffer b = ByteBuffer.allocate((int) len);
    readBodyInto(b, len);
    return b.array();
  }

  private String readLine() throws IOException {
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (!in.hasRemaining() && !fill()) {
        throw new EOFException("connection closed inside a chunked body");
      }
      byte b = in.get();
      if (b == '\n') {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
      }
      sb.append((char) (b & 0xff));
    }
  }

  /**
   * Called by the reaper: marks the connection timed out and closes its socket, failing the blocked call (the owner
   * then gives the connection back, and {@link #close} frees the rest).
   */
  void expire() {
    timedOut = true;
    closeSocket();
  }

  private void closeSocket() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing: nothing to do
    }
  }

  /** Closes the socket and frees the TLS engine; by the thread that owns the connection, or for an idle one. */
  @Override
  public void close() {
    closeSocket();
    if (tls != null) {
      tls.release();
    }
  }

  /** Closes a connection between requests: over TLS with a close_notify first (only by the thread that owns it). */
  void closeIdle() {
    if (tls != null) {
      tls.close();
    } else {
      close();
    }
  }

  /** A response head: status, headers (names lower-case), and whether the server closes the connection after it. */
  record Response(int status, Map<String, String> headers, boolean close) {
    String header(String lowerName) {
      return headers.get(lowerName);
    }

    long contentLength() {
      String v = headers.get("content-length");
      return v == null ? -1 : Long.parseLong(v.strip());
    }
  }
}
