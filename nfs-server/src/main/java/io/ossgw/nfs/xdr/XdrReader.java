package io.ossgw.nfs.xdr;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.memory.ByteBufferArray;

/**
 * Bounded XDR decoding over an oncrpc4j stream. Every variable-length item is checked against a protocol maximum
 * <em>before</em> anything is allocated: oncrpc4j's own {@code xdrDecodeString}/{@code xdrDecodeDynamicOpaque}
 * allocate whatever length the peer sends, so hostile input never reaches them through this class.
 *
 * <p>All methods throw {@link XdrException} on truncated or out-of-range input.
 */
public final class XdrReader {
  private final XdrDecodingStream in;

  public XdrReader(XdrDecodingStream in) {
    this.in = in;
  }

  /** XDR int (also unsigned int, as raw bits). */
  public int int32() {
    try {
      return in.xdrDecodeInt();
    } catch (java.io.IOException | BufferUnderflowException e) {
      throw new XdrException("truncated: " + e.getMessage());
    }
  }

  /** XDR unsigned int as a non-negative long. */
  public long uint32() {
    return int32() & 0xffffffffL;
  }

  /** XDR hyper / unsigned hyper (raw bits). */
  public long int64() {
    try {
      return in.xdrDecodeLong();
    } catch (java.io.IOException | BufferUnderflowException e) {
      throw new XdrException("truncated: " + e.getMessage());
    }
  }

  /** XDR bool: exactly 0 or 1 (RFC 4506 §4.4); anything else is garbage. */
  public boolean bool() {
    int v = int32();
    if (v != 0 && v != 1) {
      throw new XdrException("bad bool " + v);
    }
    return v == 1;
  }

  /** An enum value, which must lie in {@code [min, max]}. */
  public int enumValue(int min, int max) {
    int v = int32();
    if (v < min || v > max) {
      throw new XdrException("enum value " + v + " outside " + min + ".." + max);
    }
    return v;
  }

  /** Fixed-length opaque of {@code n} bytes (padded to 4). */
  public byte[] fixedOpaque(int n) {
    try {
      return in.xdrDecodeOpaque(n);
    } catch (java.io.IOException | BufferUnderflowException e) {
      throw new XdrException("truncated: " + e.getMessage());
    }
  }

  /** Variable-length opaque of at most {@code max} bytes. */
  public byte[] opaque(int max) {
    return fixedOpaque(length(max));
  }

  /**
   * A UTF-8 string of at most {@code max} bytes.
   *
   * @throws XdrNameException if the bytes are not valid UTF-8
   */
  public String string(int max) {
    byte[] b = opaque(max);
    try {
      CharBuffer c = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
      return c.toString();
    } catch (CharacterCodingException e) {
      throw new XdrNameException("name is not UTF-8");
    }
  }

  /**
   * A variable-length opaque of at most {@code max} bytes as a slice of the receive buffer: no copy, valid only until
   * the reply is encoded (oncrpc4j reuses the buffer).
   */
  public ByteBuffer bytes(int max) {
    try {
      ByteBuffer b = in.xdrDecodeByteBuffer();
      if (b.remaining() > max) {
        throw new XdrException("opaque of " + b.remaining() + " bytes over the limit " + max);
      }
      return b;
    } catch (java.io.IOException | BufferUnderflowException | IllegalArgumentException e) {
      throw new XdrException("truncated: " + e.getMessage());
    }
  }

  /**
   * A variable-length opaque of at most {@code max} bytes as views of the receive buffers, never copied: over an
   * oncrpc4j {@link Xdr} the parts are slices of the record's buffers (several when the record spans socket reads),
   * valid until the call ends; other streams give one buffer of their own.
   */
  public Payload payload(int max) {
    if (!(in instanceof Xdr x)) {
      return Payload.of(bytes(max));
    }
    int len = length(max);
    int padded = len + ((4 - (len & 3)) & 3);
    Buffer b = x.asBuffer();
    int from = b.position();
    if (b.remaining() < padded) {
      throw new XdrException("truncated: opaque of " + len + " bytes, " + b.remaining() + " left");
    }
    Payload p;
    if (len == 0) {
      p = Payload.empty();
    } else if (!b.isComposite()) {
      p = Payload.of(b.toByteBuffer(from, from + len));
    } else {
      // the views' positions are set on the record's own buffers and restored at once (one thread decodes a record)
      ByteBufferArray views = b.toByteBufferArray(from, from + len);
      try {
        p = Payload.of(java.util.Arrays.copyOf(views.getArray(), views.size()));
      } finally {
        views.restore();
        views.recycle();
      }
    }
    b.position(from + padded);
    return p;
  }

  /** An XDR optional ({@code *T}, or a bool-discriminated union with one void arm): null when absent. */
  public <T> T optional(Function<XdrReader, T> decoder) {
    return bool() ? decoder.apply(this) : null;
  }

  private int length(int max) {
    int len = int32();
    if (len < 0 || len > max) {
      throw new XdrException("length " + (len & 0xffffffffL) + " over the limit " + max);
    }
    return len;
  }
}
