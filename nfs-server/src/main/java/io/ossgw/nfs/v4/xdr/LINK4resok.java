package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.9.2 LINK4resok: the target directory's change_info4. */
public record LINK4resok(change_info4 cinfo) implements XdrType {
  public static LINK4resok decode(XdrReader r) {
    return new LINK4resok(change_info4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    cinfo.encode(w);
  }
}
