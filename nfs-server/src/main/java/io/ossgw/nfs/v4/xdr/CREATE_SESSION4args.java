package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.36.1 CREATE_SESSION4args. The callback security parameters (csa_sec_parms) are read, bounded, and only
 * counted: no back channel is served (no delegations are issued), so they are never used.
 *
 * @param flags CREATE_SESSION4_FLAG_* bits
 * @param secParms how many callback_sec_parms4 the client sent (encoded back as AUTH_NONE entries)
 */
public record CREATE_SESSION4args(long clientid, int sequence, int flags, channel_attrs4 foreChanAttrs,
    channel_attrs4 backChanAttrs, int cbProgram, int secParms) implements XdrType {
  private static final int AUTH_NONE = 0;
  private static final int AUTH_SYS = 1;
  private static final int RPCSEC_GSS = 6;

  public static CREATE_SESSION4args decode(XdrReader r) {
    long id = r.int64();
    int seq = r.int32();
    int flags = r.int32();
    channel_attrs4 fore = channel_attrs4.decode(r);
    channel_attrs4 back = channel_attrs4.decode(r);
    int prog = r.int32();
    int n = Xdr4.count(r, Nfs4.ARRAY_LIMIT);
    for (int i = 0; i < n; i++) {
      skipSecParms(r);
    }
    return new CREATE_SESSION4args(id, seq, flags, fore, back, prog, n);
  }

  private static void skipSecParms(XdrReader r) {
    int flavor = r.int32();
    switch (flavor) {
      case AUTH_NONE -> {}
      case AUTH_SYS -> { // authsys_parms (RFC 5531 appendix A)
        r.int32();
        r.opaque(255);
        r.int32();
        r.int32();
        int gids = Xdr4.count(r, 16);
        for (int g = 0; g < gids; g++) {
          r.int32();
        }
      }
      case RPCSEC_GSS -> { // gss_cb_handles4
        r.int32();
        r.opaque(Nfs4.NFS4_OPAQUE_LIMIT);
        r.opaque(Nfs4.NFS4_OPAQUE_LIMIT);
      }
      default -> throw new XdrException("callback_sec_parms4 flavor " + flavor);
    }
  }

  @Override
  public void encode(XdrWriter w) {
    w.int64(clientid).int32(sequence).int32(flags);
    foreChanAttrs.encode(w);
    backChanAttrs.encode(w);
    w.int32(cbProgram).int32(secParms);
    for (int i = 0; i < secParms; i++) {
      w.int32(AUTH_NONE);
    }
  }
}
