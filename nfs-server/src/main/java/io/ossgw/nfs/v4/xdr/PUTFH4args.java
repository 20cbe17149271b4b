package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/** RFC 8881 §18.19.1 PUTFH4args: the filehandle to make current (at most NFS4_FHSIZE bytes). */
public record PUTFH4args(nfs_fh4 object) implements XdrType {
  public static PUTFH4args decode(XdrReader r) {
    return new PUTFH4args(nfs_fh4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    object.encode(w);
  }
}
