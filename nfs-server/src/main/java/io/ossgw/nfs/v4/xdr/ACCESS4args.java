package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.1.1 ACCESS4args: the ACCESS4_* bits to check. */
public record ACCESS4args(int access) implements XdrType {
  public static ACCESS4args decode(XdrReader r) {
    return new ACCESS4args(r.int32());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(access);
  }
}
