package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.v4.Component4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.26.1 RENAME4args: {@code oldname} in the saved filehandle's directory becomes {@code newname} in the
 * current filehandle's. Names as sent (component4, at most {@link Component4#READ_LIMIT} bytes), checked by the
 * operation.
 */
public record RENAME4args(byte[] oldname, byte[] newname) implements XdrType {
  public static RENAME4args decode(XdrReader r) {
    return new RENAME4args(Component4.read(r), Component4.read(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(oldname).opaque(newname);
  }
}
