package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.8.2 GETFH4resok: the current filehandle. */
public record GETFH4resok(nfs_fh4 object) implements XdrType {
  public static GETFH4resok decode(XdrReader r) {
    return new GETFH4resok(nfs_fh4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
