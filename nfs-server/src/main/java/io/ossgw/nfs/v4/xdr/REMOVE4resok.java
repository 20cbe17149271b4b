package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.25.2 REMOVE4resok: the directory's change_info4. */
public record REMOVE4resok(change_info4 cinfo) implements XdrType {
  public static REMOVE4resok decode(XdrReader r) {
    return new REMOVE4resok(change_info4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    cinfo.encode(w);
  }
}
