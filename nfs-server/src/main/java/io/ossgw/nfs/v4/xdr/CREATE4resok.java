package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.4.2 CREATE4resok: the directory's change_info4 and the createattrs that were applied. */
public record CREATE4resok(change_info4 cinfo, bitmap4 attrset) implements XdrType {
  public static CREATE4resok decode(XdrReader r) {
    return new CREATE4resok(change_info4.decode(r), bitmap4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    cinfo.encode(w);
    attrset.encode(w);
  }
}
