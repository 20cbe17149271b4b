package io.ossgw.nfs.xdr;

import java.io.IOException;
import java.util.function.Function;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.xdr.Xdr;
import org.dcache.oncrpc4j.xdr.XdrAble;
import org.dcache.oncrpc4j.xdr.XdrDecodingStream;
import org.dcache.oncrpc4j.xdr.XdrEncodingStream;

/** Bridges between {@link XdrType}s and oncrpc4j's {@link XdrAble} (RpcCall.reply/retrieveCall, the RPC client). */
public final class Xdrs {
  private Xdrs() {}

  /** An {@link XdrAble} that encodes {@code value}; it cannot decode. */
  public static XdrAble encoder(XdrType value) {
    return new XdrAble() {
      @Override
      public void xdrEncode(XdrEncodingStream xdr) {
        value.encode(new XdrWriter(xdr));
      }

      @Override
      public void xdrDecode(XdrDecodingStream xdr) {
        throw new UnsupportedOperationException("encode only");
      }
    };
  }

  /** An {@link XdrAble} that decodes with {@code decoder}; {@link Decoder#value()} has the result. */
  public static <T> Decoder<T> decoder(Function<XdrReader, T> decoder) {
    return new Decoder<>(decoder);
  }

  /** Encodes a value into a fresh byte array (tests, the duplicate-request cache). */
  public static byte[] toBytes(XdrType value) {
    Xdr x = new Xdr(256);
    x.beginEncoding();
    value.encode(new XdrWriter(x));
    x.endEncoding();
    org.glassfish.grizzly.Buffer b = x.asBuffer();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  /** The bytes {@code value}'s encoding takes, counted without encoding it (data buffers are not read). */
  public static long size(XdrType value) {
    XdrWriter w = XdrWriter.sizing();
    value.encode(w);
    return w.size();
  }

  /** Decodes a whole byte array; fails if bytes are left over. */
  public static <T> T fromBytes(byte[] bytes, Function<XdrReader, T> decoder) {
    Xdr x = new Xdr(bytes);
    x.beginDecoding();
    T v = decoder.apply(new XdrReader(x));
    if (x.hasMoreData()) {
      throw new XdrException("trailing bytes after " + v);
    }
    return v;
  }

  /** An {@link XdrAble} that decodes a value of type T. */
  public static final class Decoder<T> implements XdrAble {
    private final Function<XdrReader, T> decoder;
    private T value;

    private Decoder(Function<XdrReader, T> decoder) {
      this.decoder = decoder;
    }

    @Override
    public void xdrDecode(XdrDecodingStream xdr) throws OncRpcException, IOException {
      value = decoder.apply(new XdrReader(xdr));
    }

    @Override
    public void xdrEncode(XdrEncodingStream xdr) {
      throw new UnsupportedOperationException("decode only");
    }

    /** The decoded value (null before {@link #xdrDecode}). */
    public T value() {
      return value;
    }
  }

  /** Encoded bytes replayed as they are (a cached reply body). Its length must be a multiple of 4. */
  public record Raw(byte[] bytes) implements XdrType {
    @Override
    public void encode(XdrWriter w) {
      w.fixedOpaque(bytes);
    }
  }
}
