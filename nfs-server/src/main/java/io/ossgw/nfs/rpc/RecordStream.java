package io.ossgw.nfs.rpc;

import io.ossgw.nfs.rpc.ReceiveMemory.Piece;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.BuffersBuffer;
import org.glassfish.grizzly.memory.ByteBufferWrapper;
import org.glassfish.grizzly.memory.MemoryManager;

/**
 * The bytes received on one connection and the RPC records in them (record marking, RFC 5531 §11). Unlike
 * oncrpc4j's parser, which buffers whatever a fragment header announces (up to 2 GiB) until it is complete, this one
 * refuses a record as soon as its headers announce more than {@code maxRecord} bytes or {@code maxFragments}
 * fragments, and hands out one record at a time, so the caller can stop taking records while the connection is over
 * its in-flight cap (the rest stays here, unparsed).
 *
 * <p>Nothing is copied: a record is a view of the socket reads ({@link ReceiveMemory.Piece}s) it arrived in, which
 * it keeps from going back to their pool until {@link Record#release}. The stream holds each piece until it has
 * handed out (or skipped, for fragment headers) every byte of it. Not thread-safe: the owner synchronizes.
 */
final class RecordStream {
  /** The record headers announce more than the limits allow. */
  static final class OversizeException extends Exception {
    OversizeException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * One complete record: its bytes for oncrpc4j ({@link #xdr}, positioned at the start) and the pieces they lie in.
   * {@link #release} (once the call no longer needs the bytes) lets the pieces go; later calls do nothing.
   */
  static final class Record {
    private final Xdr xdr;
    private final Piece[] pieces;
    private final AtomicBoolean released = new AtomicBoolean();

    Record(Xdr xdr, Piece[] pieces) {
      this.xdr = xdr;
      this.pieces = pieces;
    }

    Xdr xdr() {
      return xdr;
    }

    void release() {
      if (released.compareAndSet(false, true)) {
        for (Piece p : pieces) {
          p.releaseRef();
        }
      }
    }
  }

  private static final int LAST = 0x80000000;
  private static final int SIZE = 0x7fffffff;
  private static final Piece[] NO_PIECES = new Piece[0];
  /** Stands in for "no piece" in the owner deque (which takes no nulls). */
  private static final Piece NULL_OWNER = new Piece(ByteBuffer.allocate(0), null);

  private final MemoryManager<?> memory;
  private final int maxRecord;
  private final int maxFragments;
  /** Unparsed bytes, oldest first: each view's position is the first byte not yet handed out. */
  private final ArrayDeque<ByteBuffer> views = new ArrayDeque<>();
  /** The piece behind each view (null for a buffer that is not one: nothing to release). */
  private final ArrayDeque<Piece> owners = new ArrayDeque<>();
  private int buffered;
  private boolean closed;

  RecordStream(MemoryManager<?> memory, int maxRecord, int maxFragments) {
    this.memory = memory;
    this.maxRecord = maxRecord;
    this.maxFragments = maxFragments;
  }

  /** Adds bytes read from the socket (the stream takes over the piece's first reference). */
  void append(Buffer received) {
    if (!received.hasRemaining() || closed) {
      if (received instanceof Piece p) {
        p.adopt();
        p.releaseRef();
      }
      return;
    }
    if (received instanceof Piece p) {
      p.adopt();
      add(p.toByteBuffer().slice(), p);
    } else if (received.isComposite()) {
      for (ByteBuffer b : received.toByteBufferArray().getArray()) {
        if (b != null && b.hasRemaining()) {
          add(b.slice(), null);
        }
      }
    } else {
      add(received.toByteBuffer().slice(), null);
    }
  }

  private void add(ByteBuffer view, Piece owner) {
    views.addLast(view);
    owners.addLast(owner == null ? NULL_OWNER : owner);
    buffered += view.remaining();
  }

  /** Bytes received and not yet handed out as records. */
  int buffered() {
    return buffered;
  }

  /** The connection closed: every piece still held goes back (records already handed out keep theirs). */
  void close() {
    closed = true;
    while (!views.isEmpty()) {
      dropHead();
    }
    buffered = 0;
  }

  /**
   * The next complete record (a view of the received bytes, no copy), or null if none is complete.
   *
   * @throws OversizeException if the next record is over the limits (the connection must be closed)
   */
  Record next() throws OversizeException {
    long pos = 0;
    long total = 0;
    int fragments = 0;
    List<long[]> ranges = new ArrayList<>(2);
    while (true) {
      if (pos + 4 > buffered) {
        return null;
      }
      int marker = intAt(pos);
      int size = marker & SIZE;
      total += size;
      fragments++;
      if (total > maxRecord || fragments > maxFragments) {
        throw new OversizeException("RPC record over " + maxRecord + " bytes or " + maxFragments + " fragments");
      }
      if (pos + 4 + size > buffered) {
        return null;
      }
      ranges.add(new long[] {pos + 4, pos + 4 + size});
      pos += 4 + size;
      if ((marker & LAST) != 0) {
        break;
      }
    }
    Record r = take(ranges);
    consume(pos);
    return r;
  }

  /** The big-endian int at {@code offset} bytes past the first unparsed byte (it may straddle views). */
  private int intAt(long offset) {
    int v = 0;
    int got = 0;
    long skip = offset;
    for (ByteBuffer b : views) {
      int n = b.remaining();
      if (skip >= n) {
        skip -= n;
        continue;
      }
      for (int i = b.position() + (int) skip; i < b.limit() && got < 4; i++, got++) {
        v = (v << 8) | (b.get(i) & 0xff);
      }
      skip = 0;
      if (got == 4) {
        return v;
      }
    }
    throw new IllegalStateException("fewer bytes buffered than counted");
  }

  /** Views of the byte ranges (offsets past the first unparsed byte) as one record; retains their pieces. */
  private Record take(List<long[]> ranges) {
    List<ByteBuffer> parts = new ArrayList<>();
    List<Piece> pieces = new ArrayList<>();
    long start = 0;
    var owner = owners.iterator();
    for (ByteBuffer b : views) {
      Piece p = owner.next();
      long end = start + b.remaining();
      boolean used = false;
      for (long[] r : ranges) {
        long from = Math.max(r[0], start);
        long to = Math.min(r[1], end);
        if (from < to) {
          parts.add(b.slice(b.position() + (int) (from - start), (int) (to - from)));
          used = true;
        }
      }
      if (used && p != NULL_OWNER) {
        p.retainRef();
        pieces.add(p);
      }
      if (end >= ranges.get(ranges.size() - 1)[1]) {
        break;
      }
      start = end;
    }
    Buffer body;
    if (parts.size() == 1) {
      body = new ByteBufferWrapper(parts.get(0));
    } else if (parts.isEmpty()) {
      body = new ByteBufferWrapper(ByteBuffer.allocate(0));
    } else {
      Buffer[] wrapped = new Buffer[parts.size()];
      for (int i = 0; i < wrapped.length; i++) {
        wrapped[i] = new ByteBufferWrapper(parts.get(i));
      }
      body = BuffersBuffer.create(memory, wrapped);
    }
    return new Record(new Xdr(body, memory), pieces.toArray(NO_PIECES));
  }

  /** Drops {@code n} bytes from the front, letting go of every piece consumed whole. */
  private void consume(long n) {
    buffered -= (int) n;
    while (n > 0) {
      ByteBuffer head = views.peekFirst();
      int r = head.remaining();
      if (n >= r) {
        n -= r;
        dropHead();
      } else {
        head.position(head.position() + (int) n);
        n = 0;
      }
    }
  }

  private void dropHead() {
    views.pollFirst();
    Piece p = owners.pollFirst();
    if (p != NULL_OWNER) {
      p.releaseRef();
    }
  }
}
