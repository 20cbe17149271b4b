package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 sessionid4: opaque[16], held as two longs so that it is a value (map key, equals). The server builds it
 * from the client id and a per-server counter (see {@code v4.state.Sessions}).
 */
public record sessionid4(long hi, long lo) implements XdrType {
  public static sessionid4 decode(XdrReader r) {
    return new sessionid4(r.int64(), r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(hi).int64(lo);
  }

  @Override
  public String toString() {
    return String.format("%016x%016x", hi, lo);
  }
}
