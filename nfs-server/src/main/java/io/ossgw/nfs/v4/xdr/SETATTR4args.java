package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.30.1 SETATTR4args: a stateid (for a size change) and the attributes to set. */
public record SETATTR4args(stateid4 stateid, fattr4 objAttributes) implements XdrType {
  public static SETATTR4args decode(XdrReader r) {
    stateid4 s = stateid4.decode(r);
    return new SETATTR4args(s, fattr4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    stateid.encode(w);
    objAttributes.encode(w);
  }
}
