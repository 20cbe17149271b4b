package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.26.2 RENAME4resok: the change_info4 of the source and of the target directory. */
public record RENAME4resok(change_info4 sourceCinfo, change_info4 targetCinfo) implements XdrType {
  public static RENAME4resok decode(XdrReader r) {
    return new RENAME4resok(change_info4.decode(r), change_info4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    sourceCinfo.encode(w);
    targetCinfo.encode(w);
  }
}
