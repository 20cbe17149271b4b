package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.37.1 DESTROY_SESSION4args. */
public record DESTROY_SESSION4args(sessionid4 sessionid) implements XdrType {
  public static DESTROY_SESSION4args decode(XdrReader r) {
    return new DESTROY_SESSION4args(sessionid4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    sessionid.encode(w);
  }
}
