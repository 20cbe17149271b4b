package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/**
 * XDR encoding (RFC 4506) over an oncrpc4j stream; the counterpart of {@link XdrReader}. A writer made by
 * {@link #sizing()} writes nothing and counts the bytes the encoding would take ({@link Xdrs#size}).
 */
public final class XdrWriter {
  /** The stream written to; null for a sizing writer. */
  private final XdrEncodingStream out;
  private long size;

  public XdrWriter(XdrEncodingStream out) {
    this.out = out;
  }

  private XdrWriter() {
    this.out = null;
  }

  /** A writer that only counts bytes ({@link #size()}), for the reply-size rules of NFSv4.1 sessions. */
  public static XdrWriter sizing() {
    return new XdrWriter();
  }

  /** Bytes written so far by a {@link #sizing()} writer (0 for others). */
  public long size() {
    return size;
  }

  /** Bytes an opaque of {@code n} bytes takes, padded to a multiple of 4 (without its length word). */
  static long padded(long n) {
    return (n + 3) & ~3L;
  }

  public XdrWriter int32(int v) {
    if (out == null) {
      size += 4;
    } else {
      out.xdrEncodeInt(v);
    }
    return this;
  }

  public XdrWriter int64(long v) {
    if (out == null) {
      size += 8;
    } else {
      out.xdrEncodeLong(v);
    }
    return this;
  }

  public XdrWriter bool(boolean v) {
    return int32(v ? 1 : 0);
  }

  /** Fixed-length opaque: the bytes and their padding, no length. */
  public XdrWriter fixedOpaque(byte[] b) {
    if (out == null) {
      size += padded(b.length);
    } else {
      out.xdrEncodeOpaque(b, b.length);
    }
    return this;
  }

  /** Variable-length opaque: length, bytes, padding. */
  public XdrWriter opaque(byte[] b) {
    if (out == null) {
      size += 4 + padded(b.length);
    } else {
      out.xdrEncodeDynamicOpaque(b);
    }
    return this;
  }

  public XdrWriter string(String s) {
    return opaque(s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Variable-length opaque from a buffer. On an oncrpc4j {@link Xdr} the buffer is appended without a copy and must not
   * change afterwards; other streams copy it.
   */
  public XdrWriter bytes(ByteBuffer b) {
    if (out == null) {
      size += 4 + padded(b.remaining());
    } else if (out instanceof Xdr x) {
      x.xdrEncodeShallowByteBuffer(b);
    } else {
      out.xdrEncodeByteBuffer(b);
    }
    return this;
  }

  /** Variable-length opaque from a {@link Payload} (one copy only when it has several parts). */
  public XdrWriter payload(Payload p) {
    return bytes(p.toBuffer());
  }

  /** An XDR optional: a bool, then the value if present. */
  public XdrWriter optional(XdrType v) {
    bool(v != null);
    if (v != null) {
      v.encode(this);
    }
    return this;
  }
}
