package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.v4.Component4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.9.1 LINK4args: the new name, in the current filehandle's directory, for the saved filehandle's object.
 * As sent (component4, at most {@link Component4#READ_LIMIT} bytes), checked by the operation.
 */
public record LINK4args(byte[] newname) implements XdrType {
  public static LINK4args decode(XdrReader r) {
    return new LINK4args(Component4.read(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(newname);
  }
}
