package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.7.1 GETATTR4args: the attributes asked for. */
public record GETATTR4args(bitmap4 attrRequest) implements XdrType {
  public static GETATTR4args decode(XdrReader r) {
    return new GETATTR4args(bitmap4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    attrRequest.encode(w);
  }
}
