package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.7.2 GETATTR4resok: the attributes of the current filehandle. */
public record GETATTR4resok(fattr4 objAttributes) implements XdrType {
  public static GETATTR4resok decode(XdrReader r) {
    return new GETATTR4resok(fattr4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    objAttributes.encode(w);
  }
}
