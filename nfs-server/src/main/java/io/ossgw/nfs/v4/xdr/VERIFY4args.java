package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.31.1 VERIFY4args (and NVERIFY4args, §18.15.1, the same shape): attributes to compare. */
public record VERIFY4args(fattr4 objAttributes) implements XdrType {
  public static VERIFY4args decode(XdrReader r) {
    return new VERIFY4args(fattr4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    objAttributes.encode(w);
  }
}
