package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;
import java.nio.ByteBuffer;

/**
 * RFC 8881 §18.22.2 READ4resok.
 *
 * @param data the bytes read, written by the encoder straight from this buffer (one copy: engine to buffer)
 */
public record READ4resok(boolean eof, ByteBuffer data) implements XdrType {
  /** Largest data a client-side decode accepts (the server never sends more than its maxread). */
  public static final int MAX_DATA = 64 << 20;

  public static READ4resok decode(XdrReader r) {
    boolean eof = r.bool();
    return new READ4resok(eof, ByteBuffer.wrap(r.opaque(MAX_DATA)));
  }

  @Override
  public void encode(XdrWriter w) {
    w.bool(eof).bytes(data.duplicate());
  }
}
