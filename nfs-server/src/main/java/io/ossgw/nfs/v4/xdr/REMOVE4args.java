package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.v4.Component4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.25.1 REMOVE4args: the name to remove from the current filehandle's directory.
 *
 * @param target component4 as sent (UTF-8 and the name rules are checked by the operation, so that a bad name is
 *     NFS4ERR_INVAL or NFS4ERR_BADNAME rather than NFS4ERR_BADXDR); at most {@link Component4#READ_LIMIT} bytes
 */
public record REMOVE4args(byte[] target) implements XdrType {
  public static REMOVE4args decode(XdrReader r) {
    return new REMOVE4args(Component4.read(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(target);
  }
}
