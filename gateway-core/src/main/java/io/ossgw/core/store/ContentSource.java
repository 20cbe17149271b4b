package io.ossgw.core.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A request body of known length that can be opened more than once, so a failed upload can be retried from the start
 * and the Content-Length header is always explicit (no chunked PutObject from the gateway).
 */
public interface ContentSource {

  /** Body length in bytes. */
  long length();

  /** Opens a fresh stream over the whole body; the caller closes it. */
  InputStream openStream();

  /** A body over {@code data[offset, offset+length)}; the array is not copied, so it must not change until the upload ends. */
  static ContentSource ofBytes(byte[] data, int offset, int length) {
    return new ContentSource() {
      @Override
      public long length() {
        return length;
      }

      @Override
      public InputStream openStream() {
        return new ByteArrayInputStream(data, offset, length);
      }
    };
  }

  static ContentSource ofBytes(byte[] data) {
    return ofBytes(data, 0, data.length);
  }

  /** The empty body. */
  static ContentSource empty() {
    return ofBytes(new byte[0]);
  }

  /**
   * A body over {@code [position, position+length)} of an open file, read with positional reads (the channel's own
   * position is untouched, so several parts of one file can upload at once).
   */
  static ContentSource ofFileRange(FileChannel channel, long position, long length) {
    return new FileRange(channel, position, length, null);
  }

  /**
   * As {@link #ofFileRange(FileChannel, long, long)} for a range whose CRC-64 (ECMA-182, as OSS's {@code
   * x-oss-hash-crc64ecma}) the caller computed from the bytes it wrote there, or null when it did not: a client that
   * checks uploads may send a range with its CRC without reading it (sendfile) and check the reply against {@code
   * crc64}.
   */
  static ContentSource ofFileRange(FileChannel channel, long position, long length, Long crc64) {
    return new FileRange(channel, position, length, crc64);
  }

  /**
   * A body over the bytes of {@code slices}, each from its position to its limit, in order (a file staged in memory).
   * The buffers are not copied (each open works on duplicates), so their bytes must not change until the upload ends.
   */
  static ContentSource ofBuffers(java.util.List<ByteBuffer> slices) {
    ByteBuffer[] a = new ByteBuffer[slices.size()];
    long n = 0;
    for (int i = 0; i < a.length; i++) {
      a[i] = slices.get(i).duplicate();
      n += a[i].remaining();
    }
    return new Buffers(a, n);
  }

  /**
   * Bytes in memory, {@code slices[i]} from position to limit, {@code length} bytes in all: a client that writes
   * buffers itself (the lean data path) sends {@link #slices()} as they are (duplicate them first); others read
   * {@link #openStream()}.
   *
   * @param slices the body's buffers in order (direct or heap); never modified through this source
   * @param length the sum of their remaining bytes
   */
  record Buffers(ByteBuffer[] slices, long length) implements ContentSource {
    /** Fresh duplicates of the slices, positioned at their first byte (safe to consume). */
    public ByteBuffer[] duplicates() {
      ByteBuffer[] d = new ByteBuffer[slices.length];
      for (int i = 0; i < d.length; i++) {
        d[i] = slices[i].duplicate();
      }
      return d;
    }

    @Override
    public InputStream openStream() {
      ByteBuffer[] d = duplicates();
      return new InputStream() {
        private int i;
        private long pos;
        private long mark;

        @Override
        public boolean markSupported() {
          return true; // the SDK resets a body to resend it
        }

        @Override
        public synchronized void mark(int readlimit) {
          mark = pos;
        }

        @Override
        public synchronized void reset() {
          i = 0;
          pos = 0;
          for (int k = 0; k < d.length; k++) {
            d[k].position(slices[k].position());
          }
          skip(mark);
        }

        @Override
        public long skip(long n) {
          long done = 0;
          while (done < n && i < d.length) {
            int k = (int) Math.min(n - done, d[i].remaining());
            d[i].position(d[i].position() + k);
            done += k;
            if (!d[i].hasRemaining()) {
              i++;
            }
          }
          pos += done;
          return done;
        }

        @Override
        public int available() {
          return (int) Math.min(Integer.MAX_VALUE, length - pos);
        }

        @Override
        public int read() {
          byte[] one = new byte[1];
          return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
          if (len == 0) {
            return 0;
          }
          while (i < d.length && !d[i].hasRemaining()) {
            i++;
          }
          if (i == d.length) {
            return -1;
          }
          int n = Math.min(len, d[i].remaining());
          d[i].get(b, off, n);
          pos += n;
          return n;
        }
      };
    }
  }

  /**
   * {@code [position, position+length)} of an open file (a write's spool): a client that can send file regions
   * itself (the lean data path: pread into a direct buffer, or sendfile) takes the channel and range from here; others
   * read {@link #openStream()}.
   *
   * @param channel the open file, read with positional reads only
   * @param position first byte of the body in the file
   * @param length body length in bytes
   * @param crc64 the CRC-64 of those bytes when the writer computed it as it wrote them, else null
   */
  record FileRange(FileChannel channel, long position, long length, Long crc64) implements ContentSource {
    @Override
    public InputStream openStream() {
      return new FileRangeInputStream(channel, position, length);
    }
  }

  /**
   * An InputStream over a file range that reads the file in chunks of up to {@value #CHUNK} bytes into a pooled direct
   * buffer and hands them out from there: the SDK reads a request body 4 KiB at a time, which was one {@code pread}
   * (and one temporary buffer) per 4 KiB before. It keeps the CRC-64 of the bytes read from the start of the range
   * ({@link #crc64()}), computed on each chunk as it is read from the spool, so checking an upload against OSS's {@code
   * x-oss-hash-crc64ecma} costs no second pass. Supports mark/reset so the SDK can retry it.
   */
  final class FileRangeInputStream extends InputStream {
    /** Chunk size: four CRC lanes of 16 KiB, a few large preads per part. */
    static final int CHUNK = 256 * 1024;
    /**
     * Direct chunks ever allocated, at most {@link #MAX_DIRECT} (8 MiB of direct memory, outside the memory budget);
     * they are kept in {@link #POOL} when not in use. Streams that find none free read through a heap chunk instead.
     */
    private static final java.util.concurrent.ConcurrentLinkedQueue<ByteBuffer> POOL =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    private static final java.util.concurrent.atomic.AtomicInteger DIRECT = new java.util.concurrent.atomic.AtomicInteger();
    private static final int MAX_DIRECT = 32;

    private final FileChannel channel;
    private final long start;
    private final long end;
    private ByteBuffer chunk; // [position, limit) are the file's bytes at [pos, ...)
    private long pos;
    private long mark;
    private long crc;
    private long crcUpTo;

    FileRangeInputStream(FileChannel channel, long start, long length) {
      this.channel = channel;
      this.start = start;
      this.end = start + length;
      this.pos = start;
      this.mark = start;
      this.crcUpTo = start;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (len == 0) {
        return 0;
      }
      if (pos >= end) {
        return -1;
      }
      if (chunk == null || !chunk.hasRemaining()) {
        fill();
      }
      int n = Math.min(len, chunk.remaining());
      chunk.get(b, off, n);
      pos += n;
      return n;
    }

    /** Reads the next chunk at {@code pos}; extends the CRC when the chunk continues the bytes it covers. */
    private void fill() {
      if (chunk == null) {
        chunk = take();
      }
      int want = (int) Math.min(chunk.capacity(), end - pos);
      chunk.clear().limit(want);
      try {
        while (chunk.hasRemaining()) {
          if (channel.read(chunk, pos + chunk.position()) < 0) {
            throw new IOException("staged file shorter than expected at offset " + (pos + chunk.position()));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      chunk.flip();
      if (crcUpTo == pos) {
        crc = io.ossgw.core.util.Crc64.update(crc, chunk);
        crcUpTo = pos + want;
      }
    }

    @Override
    public long skip(long n) {
      long k = Math.max(0, Math.min(n, end - pos));
      seek(pos + k);
      return k;
    }

    private void seek(long to) {
      long chunkStart = chunk == null ? pos : pos - chunk.position();
      if (chunk != null && to >= chunkStart && to <= chunkStart + chunk.limit()) {
        chunk.position((int) (to - chunkStart));
      } else if (chunk != null) {
        chunk.clear().limit(0);
      }
      pos = to;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, end - pos);
    }

    @Override
    public boolean markSupported() {
      return true;
    }

    @Override
    public synchronized void mark(int readlimit) {
      mark = pos;
    }

    @Override
    public synchronized void reset() {
      seek(mark);
    }

    /** Bytes consumed so far. */
    public long consumed() {
      return pos - start;
    }

    /**
     * The CRC-64 ({@link io.ossgw.core.util.Crc64}) of the whole range once it has all been read, else empty (not yet
     * read to the end, or read out of order after a skip).
     */
    public java.util.OptionalLong crc64() {
      return crcUpTo == end ? java.util.OptionalLong.of(crc) : java.util.OptionalLong.empty();
    }

    @Override
    public void close() {
      ByteBuffer c = chunk;
      chunk = null;
      if (c != null && c.isDirect()) {
        POOL.offer(c);
      }
    }

    private ByteBuffer take() {
      ByteBuffer c = POOL.poll();
      if (c != null) {
        return c;
      }
      if (DIRECT.incrementAndGet() <= MAX_DIRECT) {
        return ByteBuffer.allocateDirect(CHUNK);
      }
      DIRECT.decrementAndGet();
      return ByteBuffer.allocate((int) Math.min(CHUNK, end - start));
    }
  }
}
