package io.ossgw.nfs.xdr;

import java.nio.ByteBuffer;

/**
 * The bytes of a variable-length opaque (WRITE data, RFC 1813 §3.3.7 and RFC 8881 §18.32) as views of the buffers
 * they arrived in, without a copy: a record that spanned several socket reads gives several parts. When decoded by
 * the server the parts are valid until the call ends (its receive buffers then go back to their pool), so they must
 * be consumed (copied into the engine's staging) before the reply. Each call to {@link #parts()} returns fresh views,
 * so consuming them does not change this payload.
 */
public final class Payload {
  private static final ByteBuffer[] NONE = new ByteBuffer[0];

  private final ByteBuffer[] parts;
  private final int length;

  private Payload(ByteBuffer[] parts) {
    this.parts = parts;
    int n = 0;
    for (ByteBuffer p : parts) {
      n += p.remaining();
    }
    this.length = n;
  }

  /** The remaining bytes of {@code b} (not copied; later changes to {@code b}'s content show). */
  public static Payload of(ByteBuffer b) {
    return new Payload(new ByteBuffer[] {b.slice()});
  }

  /** The bytes of {@code parts}, in order (views, not copies). */
  static Payload of(ByteBuffer[] parts) {
    ByteBuffer[] own = new ByteBuffer[parts.length];
    for (int i = 0; i < parts.length; i++) {
      own[i] = parts[i].slice();
    }
    return new Payload(own);
  }

  /** An empty payload. */
  public static Payload empty() {
    return new Payload(NONE);
  }

  /** Bytes in all parts. */
  public int length() {
    return length;
  }

  /** The first {@code n} bytes (all of them when {@code n} is not smaller): a WRITE's count below its data's length. */
  public Payload truncate(long n) {
    if (n >= length) {
      return this;
    }
    java.util.List<ByteBuffer> out = new java.util.ArrayList<>();
    long left = Math.max(0, n);
    for (ByteBuffer p : parts) {
      if (left == 0) {
        break;
      }
      int take = (int) Math.min(left, p.remaining());
      out.add(p.slice(p.position(), take));
      left -= take;
    }
    return new Payload(out.toArray(NONE));
  }

  /** Fresh views of the parts, in order (positions at their starts). */
  public ByteBuffer[] parts() {
    ByteBuffer[] out = new ByteBuffer[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = parts[i].duplicate();
    }
    return out;
  }

  /** The bytes as one buffer: the part itself when there is one, else a copy (clients and tests). */
  public ByteBuffer toBuffer() {
    if (parts.length == 1) {
      return parts[0].duplicate();
    }
    ByteBuffer all = ByteBuffer.allocate(length);
    for (ByteBuffer p : parts) {
      all.put(p.duplicate());
    }
    return all.flip();
  }

  /** A copy of the bytes (tests). */
  public byte[] toArray() {
    byte[] out = new byte[length];
    toBuffer().get(out);
    return out;
  }

  @Override
  public String toString() {
    return "Payload[" + length + " bytes in " + parts.length + " parts]";
  }
}
