package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.10 lock_owner4 (a state_owner4): a client id and an opaque owner naming a lock owner (a process on the
 * client). In minor version 1 the server ignores {@code clientid} and takes the client from the session (§18.10.3,
 * §18.11.3); it is filled in replies (LOCK4denied).
 *
 * @param owner at most {@link Nfs4#NFS4_OPAQUE_LIMIT} bytes
 */
public record lock_owner4(long clientid, byte[] owner) implements XdrType {
  public static lock_owner4 decode(XdrReader r) {
    return new lock_owner4(r.int64(), r.opaque(Nfs4.NFS4_OPAQUE_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(clientid).opaque(owner);
  }
}
