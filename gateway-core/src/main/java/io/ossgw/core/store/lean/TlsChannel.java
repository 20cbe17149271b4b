package io.ossgw.core.store.lean;

import io.ossgw.core.store.tls.TlsTrust;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * TLS over one blocking {@link SocketChannel} through an {@link SSLEngine} (the JDK's, or any other provider's): the
 * lean client's {@code https://} transport. Records are decrypted straight into the caller's buffer when it has room
 * for a whole one (a ranged GET's body lands in the read-ahead chunk without a plaintext copy in between), else into a
 * small plaintext buffer the next reads drain; writes encrypt up to {@link #NET_BUFFER} bytes of records per socket
 * write. Ciphertext buffers are direct, so the socket reads and writes them without the JDK's temporary copies.
 *
 * <p>Not thread-safe, as {@link HttpConnection}: one request at a time. {@code arm} is called before every blocking
 * socket call, so the connection's read/write deadline covers each one ({@link ConnectionPool}'s reaper).
 */
final class TlsChannel implements ByteChannel {
  /** Ciphertext read or written per socket call: four full records (RFC 8446 §5.1: at most 2^14 + 256 bytes each). */
  static final int NET_BUFFER = 4 * (16 * 1024 + 256 + 5);
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  private final SocketChannel socket;
  private final SSLEngine engine;
  private final Runnable arm;
  /** Ciphertext from the socket, read mode: [position, limit) not yet unwrapped. */
  private final ByteBuffer netIn;
  /** Ciphertext for the socket, filled by wrap and written out before the next wrap. */
  private final ByteBuffer netOut;
  /** Plaintext decrypted for a reader that had no room for a whole record, read mode. */
  private ByteBuffer appIn;
  private final int packetSize;
  private boolean inboundClosed;

  /**
   * @param socket a connected blocking socket
   * @param engine a client-mode engine for the peer (its handshake runs in {@link #handshake})
   * @param arm called before each blocking socket read or write (sets the caller's deadline)
   */
  TlsChannel(SocketChannel socket, SSLEngine engine, Runnable arm) {
    this.socket = socket;
    this.engine = engine;
    this.arm = arm;
    this.packetSize = engine.getSession().getPacketBufferSize();
    this.netIn = ByteBuffer.allocateDirect(Math.max(NET_BUFFER, packetSize)).flip();
    this.netOut = ByteBuffer.allocateDirect(Math.max(NET_BUFFER, packetSize));
    this.appIn = ByteBuffer.allocateDirect(engine.getSession().getApplicationBufferSize()).flip();
  }

  /**
   * Runs the TLS handshake to its end: certificate and host name checks (the engine's trust manager and parameters)
   * or the resumption of a cached session.
   *
   * @throws javax.net.ssl.SSLHandshakeException when the server is not trusted or no common protocol exists
   * @throws IOException when the connection fails
   */
  void handshake() throws IOException {
    engine.beginHandshake();
    SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
    while (true) {
      switch (hs) {
        case NEED_WRAP -> hs = wrapAndSend(EMPTY).getHandshakeStatus();
        case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
          SSLEngineResult r = unwrapIntoPlaintext(true);
          if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the server closed the connection during the TLS handshake");
          }
          hs = r.getHandshakeStatus();
        }
        case NEED_TASK -> hs = runTasks();
        case FINISHED, NOT_HANDSHAKING -> {
          return;
        }
        default -> throw new SSLException("unexpected TLS handshake status " + hs);
      }
    }
  }

  private SSLEngineResult.HandshakeStatus runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run(); // on this thread: the connection is blocking anyway
    }
    return engine.getHandshakeStatus();
  }

  /**
   * Unwraps one record into {@code dst}, reading ciphertext from the socket until a whole record is there.
   *
   * @return the engine's result: OK, BUFFER_OVERFLOW (dst too small for this record) or CLOSED
   * @throws EOFException when the socket ends inside a record
   */
  private SSLEngineResult unwrap(ByteBuffer dst) throws IOException {
    while (true) {
      SSLEngineResult r = engine.unwrap(netIn, dst);
      if (r.getStatus() != SSLEngineResult.Status.BUFFER_UNDERFLOW) {
        return r;
      }
      netIn.compact();
      int n;
      try {
        arm.run();
        n = socket.read(netIn);
      } finally {
        netIn.flip();
      }
      if (n < 0) {
        throw new EOFException("connection closed inside a TLS record");
      }
    }
  }

  /** Wraps from {@code src} (records until {@link #netOut} is full or src is empty) and writes them all out. */
  private SSLEngineResult wrapAndSend(ByteBuffer src) throws IOException {
    netOut.clear();
    SSLEngineResult r;
    do {
      r = engine.wrap(src, netOut);
      if (r.getStatus() == SSLEngineResult.Status.CLOSED && r.bytesProduced() == 0) {
        throw new SSLException("TLS connection closed");
      }
      if (r.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
        runTasks();
      }
    } while (r.getStatus() == SSLEngineResult.Status.OK && src.hasRemaining() && netOut.remaining() >= packetSize);
    netOut.flip();
    while (netOut.hasRemaining()) {
      arm.run();
      socket.write(netOut);
    }
    return r;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (appIn.hasRemaining()) {
      return drain(dst);
    }
    if (inboundClosed) {
      return -1;
    }
    while (true) {
      // straight into dst when the record fits (the engine says BUFFER_OVERFLOW before decrypting when it does not)
      SSLEngineResult r = unwrap(dst);
      if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
        r = unwrapToPlaintextBuffer();
        if (appIn.hasRemaining()) {
          return drain(dst);
        }
      }
      if (r.bytesProduced() > 0) {
        return r.bytesProduced();
      }
      if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
        inboundClosed = true; // close_notify
        return -1;
      }
      // a post-handshake message (TLS 1.3 NewSessionTicket, KeyUpdate): nothing for the caller yet
      SSLEngineResult.HandshakeStatus hs = r.getHandshakeStatus();
      if (hs == SSLEngineResult.HandshakeStatus.NEED_TASK) {
        hs = runTasks();
      }
      if (hs == SSLEngineResult.HandshakeStatus.NEED_WRAP) {
        wrapAndSend(EMPTY);
      }
    }
  }

  /** Unwraps one record into the (empty) plaintext buffer, growing it once if the engine asks for more room. */
  private SSLEngineResult unwrapToPlaintextBuffer() throws IOException {
    for (int tries = 0; ; tries++) {
      SSLEngineResult r = unwrapIntoPlaintext(false);
      if (r.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
        return r;
      }
      if (tries > 0) {
        throw new SSLException("TLS record larger than the session's application buffer of " + appIn.capacity());
      }
      // the session's sizes are only final after the handshake (and some engines ask for more than one record)
      int want = Math.max(2 * appIn.capacity(), engine.getSession().getApplicationBufferSize());
      appIn = ByteBuffer.allocateDirect(want).flip();
    }
  }

  /** One record into the plaintext buffer, after what it holds ({@code keep}) or instead of it. */
  private SSLEngineResult unwrapIntoPlaintext(boolean keep) throws IOException {
    if (keep) {
      appIn.compact();
    } else {
      appIn.clear();
    }
    try {
      return unwrap(appIn);
    } finally {
      appIn.flip();
    }
  }

  private int drain(ByteBuffer dst) {
    int n = Math.min(appIn.remaining(), dst.remaining());
    int lim = appIn.limit();
    appIn.limit(appIn.position() + n);
    dst.put(appIn);
    appIn.limit(lim);
    return n;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    int start = src.position();
    while (src.hasRemaining()) {
      wrapAndSend(src);
    }
    return src.position() - start;
  }

  @Override
  public boolean isOpen() {
    return socket.isOpen();
  }

  /**
   * Sends close_notify (RFC 8446 §6.1) and closes the socket: for a connection between requests, whose peer reads
   * what is sent. A connection that failed mid-request is closed with {@link #abort} instead, which cannot block.
   */
  @Override
  public void close() {
    try {
      engine.closeOutbound();
      if (socket.isOpen()) {
        netOut.clear();
        engine.wrap(EMPTY, netOut);
        netOut.flip();
        socket.write(netOut); // one small alert: fits the socket buffer of an idle connection
      }
    } catch (IOException | RuntimeException e) {
      // the peer went away first: nothing to tell it
    } finally {
      try {
        socket.close();
      } catch (IOException e) {
        // closing: nothing to do
      }
      release();
    }
  }

  /** Frees the engine's native state (BoringSSL); the socket must be closed already or be closed with it. */
  void release() {
    TlsTrust.release(engine);
  }
}
