package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §3.3.15 state_owner4 (open_owner4, lock_owner4): the client id and an opaque owner the client chooses
 * (Linux: one per open file description's credential / per process for locks).
 *
 * @param clientid the client id (in 4.1 the session's client is authoritative: §18.16.3 ignores this field)
 * @param owner at most {@link Nfs4#NFS4_OPAQUE_LIMIT} bytes
 */
public record state_owner4(long clientid, byte[] owner) implements XdrType {
  public static state_owner4 decode(XdrReader r) {
    return new state_owner4(r.int64(), r.opaque(Nfs4.NFS4_OPAQUE_LIMIT));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(clientid).opaque(owner);
  }
}
