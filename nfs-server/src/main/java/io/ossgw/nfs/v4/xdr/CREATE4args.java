package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.v4.Component4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.4.1 CREATE4args: a non-regular object to make in the current filehandle's directory.
 *
 * @param objname the component4 as sent (at most {@link Component4#READ_LIMIT} bytes), checked by the operation
 * @param createattrs the attributes to give the new object
 */
public record CREATE4args(createtype4 objtype, byte[] objname, fattr4 createattrs) implements XdrType {
  public static CREATE4args decode(XdrReader r) {
    return new CREATE4args(createtype4.decode(r), Component4.read(r), fattr4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    objtype.encode(w);
    w.opaque(objname);
    createattrs.encode(w);
  }
}
