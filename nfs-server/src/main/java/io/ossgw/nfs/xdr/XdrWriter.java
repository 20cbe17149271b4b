package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** XDR encoding (RFC 4506) over an oncrpc4j stream; the counterpart of {@link XdrReader}. */
public final class XdrWriter {
  private final XdrEncodingStream out;

  public XdrWriter(XdrEncodingStream out) {
    this.out = out;
  }

  public XdrWriter int32(int v) {
    out.xdrEncodeInt(v);
    return this;
  }

  public XdrWriter int64(long v) {
    out.xdrEncodeLong(v);
    return this;
  }

  public XdrWriter bool(boolean v) {
    out.xdrEncodeBoolean(v);
    return this;
  }

  /** Fixed-length opaque: the bytes and their padding, no length. */
  public XdrWriter fixedOpaque(byte[] b) {
    out.xdrEncodeOpaque(b, b.length);
    return this;
  }

  /** Variable-length opaque: length, bytes, padding. */
  public XdrWriter opaque(byte[] b) {
    out.xdrEncodeDynamicOpaque(b);
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
    if (out instanceof Xdr x) {
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
    out.xdrEncodeBoolean(v != null);
    if (v != null) {
      v.encode(this);
    }
    return this;
  }
}
