package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.11 nfs_fh4: an opaque filehandle of at most {@link Nfs4#NFS4_FHSIZE} bytes (longer is undecodable,
 * NFS4ERR_BADXDR). PUTFH's argument and GETFH's result.
 */
public record nfs_fh4(byte[] data) implements XdrType {
  public static nfs_fh4 decode(XdrReader r) {
    return new nfs_fh4(r.opaque(Nfs4.NFS4_FHSIZE));
  }

  @Override
  public void encode(XdrWriter w) {
    w.opaque(data);
  }
}
