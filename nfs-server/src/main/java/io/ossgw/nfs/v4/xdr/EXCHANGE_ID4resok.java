package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.35.2 EXCHANGE_ID4resok, with eir_state_protect always SP4_NONE.
 *
 * @param sequenceid the csa_sequence the client's next CREATE_SESSION must carry
 * @param soMinorId so_minor_id and {@code soMajorId} so_major_id of eir_server_owner (trunking identity)
 * @param serverImplId null for none
 */
public record EXCHANGE_ID4resok(long clientid, int sequenceid, int flags, long soMinorId, byte[] soMajorId,
    byte[] serverScope, nfs_impl_id4 serverImplId) implements XdrType {
  public static EXCHANGE_ID4resok decode(XdrReader r) {
    long id = r.int64();
    int seq = r.int32();
    int flags = r.int32();
    int how = r.int32();
    if (how != Nfs4.SP4_NONE) {
      throw new XdrException("only SP4_NONE results are decoded, got " + how);
    }
    return new EXCHANGE_ID4resok(id, seq, flags, r.int64(), r.opaque(Nfs4.NFS4_OPAQUE_LIMIT),
        r.opaque(Nfs4.NFS4_OPAQUE_LIMIT), nfs_impl_id4.decodeOptional(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(clientid).int32(sequenceid).int32(flags).int32(Nfs4.SP4_NONE);
    w.int64(soMinorId).opaque(soMajorId).opaque(serverScope);
    nfs_impl_id4.encodeOptional(w, serverImplId);
  }
}
