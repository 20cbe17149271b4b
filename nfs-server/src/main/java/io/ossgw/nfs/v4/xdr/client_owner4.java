package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §2.4 / §18.35.1 client_owner4: the client's long-lived identity and its boot verifier.
 *
 * @param verifier co_verifier, 8 bytes, changes when the client reboots
 * @param ownerid co_ownerid, at most {@link Nfs4#NFS4_OPAQUE_LIMIT} bytes
 */
public record client_owner4(byte[] verifier, byte[] ownerid) implements XdrType {
  public static client_owner4 decode(XdrReader r) {
    return new client_owner4(r.fixedOpaque(Nfs4.NFS4_VERIFIER_SIZE), r.opaque(Nfs4.NFS4_OPAQUE_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.fixedOpaque(verifier).opaque(ownerid);
  }
}
