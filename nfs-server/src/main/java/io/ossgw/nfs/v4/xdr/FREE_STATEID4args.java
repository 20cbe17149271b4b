package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.38.1 FREE_STATEID4args. */
public record FREE_STATEID4args(stateid4 stateid) implements XdrType {
  public static FREE_STATEID4args decode(XdrReader r) {
    return new FREE_STATEID4args(stateid4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    stateid.encode(w);
  }
}
