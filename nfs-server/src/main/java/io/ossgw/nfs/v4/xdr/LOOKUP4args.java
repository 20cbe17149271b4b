package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.15.1 LOOKUP4args: a component4 as raw bytes, checked when LOOKUP runs (v4.Component4). */
public record LOOKUP4args(byte[] objname) implements XdrType {
  public static LOOKUP4args decode(XdrReader r) {
    return new LOOKUP4args(r.opaque(Nfs4.NFS4_OPAQUE_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(objname);
  }
}
