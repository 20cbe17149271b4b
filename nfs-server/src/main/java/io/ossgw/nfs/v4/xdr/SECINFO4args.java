package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.29.1 SECINFO4args: a component4 as raw bytes, checked when SECINFO runs. */
public record SECINFO4args(byte[] name) implements XdrType {
  public static SECINFO4args decode(XdrReader r) {
    return new SECINFO4args(r.opaque(Nfs4.NFS4_OPAQUE_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(name);
  }
}
