package io.ossgw.nfs.rpc;

import org.dcache.oncrpc4j.xdr.Xdr;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.memory.BuffersBuffer;
import org.glassfish.grizzly.memory.MemoryManager;

/**
 * The bytes received on one connection and the RPC records in them (record marking, RFC 5531 §11). Unlike
 * oncrpc4j's parser, which buffers whatever a fragment header announces (up to 2 GiB) until it is complete, this one
 * refuses a record as soon as its headers announce more than {@code maxRecord} bytes or {@code maxFragments}
 * fragments, and hands out one record at a time, so the caller can stop taking records while the connection is over
 * its in-flight cap (the rest stays here, unparsed). Not thread-safe: the owner synchronizes.
 */
final class RecordStream {
  /** The record headers announce more than the limits allow. */
  static final class OversizeException extends Exception {
    OversizeException(String message) {
      super(message, null, false, false);
    }
  }

  private static final int LAST = 0x80000000;
  private static final int SIZE = 0x7fffffff;

  private final MemoryManager<?> memory;
  private final int maxRecord;
  private final int maxFragments;
  private Buffer pending;

  RecordStream(MemoryManager<?> memory, int maxRecord, int maxFragments) {
    this.memory = memory;
    this.maxRecord = maxRecord;
    this.maxFragments = maxFragments;
  }

  /** Adds bytes read from the socket. */
  void append(Buffer received) {
    pending = Buffers.appendBuffers(memory, pending, received);
  }

  /** Bytes received and not yet handed out as records. */
  int buffered() {
    return pending == null ? 0 : pending.remaining();
  }

  /**
   * The next complete record as an {@link Xdr} (a view of the received bytes, no copy), or null if none is complete.
   *
   * @throws OversizeException if the next record is over the limits (the connection must be closed)
   */
  Xdr next() throws OversizeException {
    if (pending == null) {
      return null;
    }
    int start = pending.position();
    int pos = start;
    long total = 0;
    int fragments = 0;
    int end = pending.limit();
    while (true) {
      if (pos + 4 > end) {
        return null;
      }
      int marker = pending.getInt(pos);
      int size = marker & SIZE;
      total += size;
      fragments++;
      if (total > maxRecord || fragments > maxFragments) {
        throw new OversizeException("RPC record over " + maxRecord + " bytes or " + maxFragments + " fragments");
      }
      if ((long) pos + 4 + size > end) {
        return null;
      }
      pos += 4 + size;
      if ((marker & LAST) != 0) {
        break;
      }
    }
    Buffer record;
    if (fragments == 1) {
      record = pending.slice(start + 4, pos);
    } else {
      BuffersBuffer parts = BuffersBuffer.create(memory);
      for (int p = start; p < pos; ) {
        int size = pending.getInt(p) & SIZE;
        parts.append(pending.slice(p + 4, p + 4 + size));
        p += 4 + size;
      }
      record = parts;
    }
    // drop what was handed out, so a long-lived connection does not keep every byte it ever received
    pending.position(pos);
    pending = pending.hasRemaining() ? pending.split(pos) : null;
    return new Xdr(record, memory);
  }
}
