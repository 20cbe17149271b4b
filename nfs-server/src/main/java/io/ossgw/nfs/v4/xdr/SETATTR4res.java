package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.30.2 SETATTR4res's body: attrsset, sent whatever the status (empty on failure here). */
public record SETATTR4res(bitmap4 attrsset) implements XdrType {
  public static SETATTR4res decode(XdrReader r) {
    return new SETATTR4res(bitmap4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    attrsset.encode(w);
  }
}
