package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.1.2 ACCESS4resok: the bits the server could check and the bits granted. */
public record ACCESS4resok(int supported, int access) implements XdrType {
  public static ACCESS4resok decode(XdrReader r) {
    int s = r.int32();
    return new ACCESS4resok(s, r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(supported).int32(access);
  }
}
