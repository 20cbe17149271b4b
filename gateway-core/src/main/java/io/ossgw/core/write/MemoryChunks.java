package io.ossgw.core.write;

import io.ossgw.core.memory.BufferPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a file staged in memory ({@link StagedFile}): chunk {@code i} of the pool's buffer size {@code C} holds
 * bytes {@code [i*C, (i+1)*C)}. Buffers come from a {@link BufferPool} (charged to the memory budget) and go back to
 * it; a pooled buffer holds stale bytes, so the owner zeroes what it does not write (holes, growth). Not thread-safe:
 * the owning {@link StagedFile}'s caller holds its lock.
 */
final class MemoryChunks {
  private final BufferPool pool;
  private final int chunk;
  private final List<ByteBuffer> chunks = new ArrayList<>();

  MemoryChunks(BufferPool pool) {
    this.pool = pool;
    this.chunk = pool.bufferSize();
  }

  /** Makes the chunks cover {@code [0, end)}; false when the pool has no buffer left (those taken stay). */
  boolean cover(long end) {
    while ((long) chunks.size() * chunk < end) {
      ByteBuffer b = pool.tryAcquire();
      if (b == null) {
        return false;
      }
      chunks.add(b);
    }
    return true;
  }

  /** Copies all of {@code src} to {@code offset} (covered already) and consumes it. */
  void put(long offset, ByteBuffer src) {
    long end = offset + src.remaining();
    int from = src.position();
    for (long pos = offset; pos < end; ) {
      int i = (int) (pos / chunk);
      int at = (int) (pos - (long) i * chunk);
      int n = (int) Math.min(chunk - at, end - pos);
      chunks.get(i).put(at, src, from + (int) (pos - offset), n);
      pos += n;
    }
    src.position(src.limit());
  }

  /** Zeroes {@code [from, to)} (covered already). */
  void zero(long from, long to) {
    for (long pos = from; pos < to; ) {
      int i = (int) (pos / chunk);
      int at = (int) (pos - (long) i * chunk);
      int n = (int) Math.min(chunk - at, to - pos);
      ByteBuffer b = chunks.get(i);
      for (int k = 0; k < n; k++) {
        b.put(at + k, (byte) 0);
      }
      pos += n;
    }
  }

  /** Copies {@code [offset, offset+len)} to {@code dst} at its position and advances it. */
  void get(long offset, ByteBuffer dst, int len) {
    for (int done = 0; done < len; ) {
      long pos = offset + done;
      int i = (int) (pos / chunk);
      int at = (int) (pos - (long) i * chunk);
      int n = (int) Math.min(chunk - at, len - done);
      dst.put(dst.position(), chunks.get(i), at, n);
      dst.position(dst.position() + n);
      done += n;
    }
  }

  /** Read-only views of {@code [from, from+length)}, in order, sharing the chunks' memory. */
  List<ByteBuffer> slices(long from, long length) {
    List<ByteBuffer> out = new ArrayList<>();
    for (long pos = from; pos < from + length; ) {
      int i = (int) (pos / chunk);
      int at = (int) (pos - (long) i * chunk);
      int n = (int) Math.min(chunk - at, from + length - pos);
      out.add(chunks.get(i).asReadOnlyBuffer().limit(at + n).position(at));
      pos += n;
    }
    return out;
  }

  /** Writes {@code [0, size)} to {@code ch} at the same offsets. */
  void writeTo(FileChannel ch, long size) throws IOException {
    for (int i = 0; i < chunks.size() && (long) i * chunk < size; i++) {
      ByteBuffer b = chunks.get(i).duplicate().clear();
      b.limit((int) Math.min(chunk, size - (long) i * chunk));
      long pos = (long) i * chunk;
      while (b.hasRemaining()) {
        pos += ch.write(b, pos);
      }
    }
  }

  /** Gives back the chunks wholly past {@code size}. */
  void shrink(long size) {
    int keep = (int) ((size + chunk - 1) / chunk);
    while (chunks.size() > keep) {
      pool.release(chunks.removeLast());
    }
  }

  /** Gives back every chunk. */
  void release() {
    shrink(0);
  }
}
