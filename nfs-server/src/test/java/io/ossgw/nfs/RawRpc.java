package io.ossgw.nfs;

import io.ossgw.testsupport.Slowdown;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/**
 * RPC over a plain socket: builds CALL records byte by byte (so tests choose xids, credentials and garbage) and reads
 * replies. Tests only.
 */
final class RawRpc implements AutoCloseable {
  final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  RawRpc(int port) {
    try {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
      socket.setSoTimeout((int) Slowdown.scaledMillis(10_000));
      in = new DataInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A CALL message body (no record mark) with AUTH_SYS uid/gid and the given argument bytes. */
  static byte[] call(int xid, int prog, int vers, int proc, int uid, int gid, byte[] args) {
    byte[] machine = "raw".getBytes();
    ByteBuffer b = ByteBuffer.allocate(64 + 8 + args.length);
    b.putInt(xid).putInt(0).putInt(2).putInt(prog).putInt(vers).putInt(proc);
    b.putInt(1).putInt(4 + 4 + 4 + 4 + 4 + 4).putInt(0).putInt(machine.length).put(machine).put((byte) 0)
        .putInt(uid).putInt(gid).putInt(0);
    b.putInt(0).putInt(0);
    b.put(args);
    return java.util.Arrays.copyOf(b.array(), b.position());
  }

  /** A CALL message body (no record mark) with AUTH_NONE and the given argument bytes. */
  static byte[] callNone(int xid, int prog, int vers, int proc, byte[] args) {
    ByteBuffer b = ByteBuffer.allocate(40 + args.length);
    b.putInt(xid).putInt(0).putInt(2).putInt(prog).putInt(vers).putInt(proc).putInt(0).putInt(0).putInt(0).putInt(0);
    b.put(args);
    return b.array();
  }

  /** Sends one record (last-fragment mark plus body). */
  void send(byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(4 + body.length).putInt(0x80000000 | body.length).put(body);
    raw(b.array());
  }

  /** Sends bytes as they are. */
  void raw(byte[] bytes) {
    try {
      out.write(bytes);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A decoded reply. */
  record Reply(int xid, boolean accepted, int stat, int low, int high, byte[] body) {}

  /** Reads one reply record. */
  Reply read() throws IOException {
    int mark = in.readInt();
    int len = mark & 0x7fffffff;
    byte[] rec = new byte[len];
    in.readFully(rec);
    ByteBuffer b = ByteBuffer.wrap(rec);
    int xid = b.getInt();
    b.getInt(); // REPLY
    int replyStat = b.getInt();
    if (replyStat != 0) {
      int rejectStat = b.getInt();
      return new Reply(xid, false, rejectStat, 0, 0, java.util.Arrays.copyOfRange(rec, b.position(), rec.length));
    }
    b.getInt(); // verifier flavor
    int vlen = b.getInt();
    b.position(b.position() + ((vlen + 3) & ~3));
    int acceptStat = b.getInt();
    int low = 0;
    int high = 0;
    if (acceptStat == 2) { // PROG_MISMATCH
      low = b.getInt();
      high = b.getInt();
    }
    return new Reply(xid, true, acceptStat, low, high, java.util.Arrays.copyOfRange(rec, b.position(), rec.length));
  }

  /** True if the server closed the connection (EOF or reset) within the socket timeout. */
  boolean closedByServer() {
    try {
      while (true) {
        read();
      }
    } catch (EOFException | java.net.SocketException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing
    }
  }
}
