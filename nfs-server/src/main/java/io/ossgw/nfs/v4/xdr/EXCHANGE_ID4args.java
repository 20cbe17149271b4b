package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.35.1 EXCHANGE_ID4args.
 *
 * @param flags EXCHGID4_FLAG_* bits
 * @param clientImplId null when the client sent none
 */
public record EXCHANGE_ID4args(client_owner4 clientowner, int flags, state_protect4_a stateProtect,
    nfs_impl_id4 clientImplId) implements XdrType {
  public static EXCHANGE_ID4args decode(XdrReader r) {
    return new EXCHANGE_ID4args(client_owner4.decode(r), r.int32(), state_protect4_a.decode(r),
        nfs_impl_id4.decodeOptional(r));
  }

  @Override
  public void encode(XdrWriter w) {
    clientowner.encode(w);
    w.int32(flags);
    stateProtect.encode(w);
    nfs_impl_id4.encodeOptional(w, clientImplId);
  }
}
