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
    return new ContentSource() {
      @Override
      public long length() {
        return length;
      }

      @Override
      public InputStream openStream() {
        return new FileRangeInputStream(channel, position, length);
      }
    };
  }

  /** An InputStream over a file range using positional reads; supports mark/reset so the SDK can retry it. */
  final class FileRangeInputStream extends InputStream {
    private final FileChannel channel;
    private final long start;
    private final long end;
    private long pos;
    private long mark;

    FileRangeInputStream(FileChannel channel, long start, long length) {
      this.channel = channel;
      this.start = start;
      this.end = start + length;
      this.pos = start;
      this.mark = start;
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
      int want = (int) Math.min(len, end - pos);
      try {
        int n = channel.read(ByteBuffer.wrap(b, off, want), pos);
        if (n < 0) {
          throw new IOException("staged file shorter than expected at offset " + pos);
        }
        pos += n;
        return n;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public long skip(long n) {
      long k = Math.max(0, Math.min(n, end - pos));
      pos += k;
      return k;
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
      pos = mark;
    }

    /** Bytes consumed so far. */
    public long consumed() {
      return pos - start;
    }
  }
}
