package io.ossgw.core.store.aliyun;

import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.PartETag;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.util.Crc64;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.OptionalLong;

/**
 * The end-to-end check of uploads: the CRC-64 of the bytes the SDK sent, computed by ossgw while it reads them
 * ({@link Crc64}), against the {@code x-oss-hash-crc64ecma} OSS returns for PutObject and UploadPart; for
 * CompleteMultipartUpload, the parts' CRCs combined in part order against the object's. A mismatch throws a transient
 * {@link StoreException} ({@code InconsistentCRC}, as the SDK's own check was mapped), so the retry sends the body
 * again. A reply without the header (not OSS's) is not checked.
 */
public final class UploadCrc {
  private UploadCrc() {}

  /** A request body that knows the CRC-64 of what was read from it. */
  abstract static class Body extends FilterInputStream {
    Body(InputStream in) {
      super(in);
    }

    /** The CRC-64 of the whole body once read to its end, else empty. */
    abstract OptionalLong crc64();
  }

  /** Opens {@code body}: spool ranges carry their CRC (computed per chunk as read); other bodies are summed here. */
  static Body open(ContentSource body) {
    InputStream in = body.openStream();
    if (in instanceof ContentSource.FileRangeInputStream f) {
      return new Body(f) {
        @Override
        OptionalLong crc64() {
          return f.crc64();
        }
      };
    }
    return new Summing(in, body.length());
  }

  /**
   * Compares ours with the server's CRC.
   *
   * @return ours when known (for the part list), else null
   * @throws StoreException TRANSIENT "InconsistentCRC" when both are known and differ
   */
  public static Long check(OptionalLong ours, Long server, String requestId, String what) {
    if (ours.isEmpty()) {
      return null;
    }
    if (server != null && server != ours.getAsLong()) {
      throw new StoreException(StoreErrorKind.TRANSIENT, "InconsistentCRC", 0, requestId,
          what + ": CRC-64 of the bytes sent (" + Long.toUnsignedString(ours.getAsLong()) + ") does not match the server's ("
              + Long.toUnsignedString(server) + ")", null);
    }
    return ours.getAsLong();
  }

  /** The object's CRC-64 from its parts' in order, or empty when a part's is unknown. */
  public static OptionalLong combine(List<PartETag> parts) {
    long crc = 0;
    for (PartETag p : parts) {
      if (p.crc64() == null) {
        return OptionalLong.empty();
      }
      crc = Crc64.combine(crc, p.crc64(), p.size());
    }
    return OptionalLong.of(crc);
  }

  /** Sums a body that is not a spool range (bytes in memory) as the SDK reads it. */
  private static final class Summing extends Body {
    private final long length;
    private long crc;
    private long read;
    private long mark;
    private long markCrc;

    Summing(InputStream in, long length) {
      super(in);
      this.length = length;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        crc = Crc64.update(crc, b, off, n);
        read += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long k = in.skip(n);
      if (k > 0) {
        read = Long.MIN_VALUE; // skipped bytes are not summed: no CRC to check
      }
      return k;
    }

    @Override
    public synchronized void mark(int readlimit) {
      in.mark(readlimit);
      mark = read;
      markCrc = crc;
    }

    @Override
    public synchronized void reset() throws IOException {
      in.reset();
      read = mark;
      crc = markCrc;
    }

    @Override
    OptionalLong crc64() {
      return read == length ? OptionalLong.of(crc) : OptionalLong.empty();
    }
  }
}
