package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.EXCHANGE_ID4args;
import io.ossgw.nfs.v4.xdr.EXCHANGE_ID4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.nfs_impl_id4;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import java.nio.charset.StandardCharsets;

/**
 * EXCHANGE_ID (RFC 8881 §18.35): registers or finds the client record of a client owner ({@link
 * ClientTable#exchangeId}). Only SP4_NONE state protection is offered and pNFS is not: the reply says
 * EXCHGID4_FLAG_USE_NON_PNFS.
 */
final class ExchangeIdOp implements Operation<EXCHANGE_ID4args> {
  private static final nfs_impl_id4 IMPL = new nfs_impl_id4("ossgw.io", "ossgw", 0, 0);
  private final byte[] serverOwner;

  /** @param serverOwner so_major_id and eir_server_scope: servers sharing it share state (one per gateway) */
  ExchangeIdOp(String serverOwner) {
    this.serverOwner = serverOwner.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public int op() {
    return Nfs4.OP_EXCHANGE_ID;
  }

  @Override
  public EXCHANGE_ID4args decode(XdrReader r) {
    return EXCHANGE_ID4args.decode(r);
  }

  @Override
  public XdrType run(CompoundContext ctx, EXCHANGE_ID4args a) {
    // MACH_CRED needs an integrity-protected machine credential (RPCSEC_GSS), which AUTH_SYS is not: NFS4ERR_INVAL;
    // SSV's algorithms are none we offer: NFS4ERR_ENCR_ALG_UNSUPP (the Linux server answers the same two).
    if (a.stateProtect().how() == Nfs4.SP4_MACH_CRED) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "SP4_MACH_CRED without RPCSEC_GSS");
    }
    if (a.stateProtect().how() == Nfs4.SP4_SSV) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_ENCR_ALG_UNSUPP, "SP4_SSV not offered");
    }
    ClientTable.Exchange e = ctx.clients.exchangeId(a.clientowner(), a.flags(), ctx.principal,
        ctx.peer.address() == null ? null : ctx.peer.address().getAddress());
    int flags = Nfs4.EXCHGID4_FLAG_USE_NON_PNFS | (e.confirmed() ? Nfs4.EXCHGID4_FLAG_CONFIRMED_R : 0);
    return new EXCHANGE_ID4resok(e.clientid(), e.sequenceid(), flags, 0, serverOwner, serverOwner, IMPL);
  }
}
