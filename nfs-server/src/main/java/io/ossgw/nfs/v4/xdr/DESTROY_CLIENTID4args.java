package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.50.1 DESTROY_CLIENTID4args. */
public record DESTROY_CLIENTID4args(long clientid) implements XdrType {
  public static DESTROY_CLIENTID4args decode(XdrReader r) {
    return new DESTROY_CLIENTID4args(r.int64());
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(clientid);
  }
}
