package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.35.1 state_protect4_a. Only SP4_NONE is offered (AUTH_SYS has no machine credential to bind), so the
 * SP4_MACH_CRED and SP4_SSV arms are read, bounded, and dropped; {@link #how} says which arm the client sent.
 */
public record state_protect4_a(int how) implements XdrType {
  public static final state_protect4_a NONE = new state_protect4_a(Nfs4.SP4_NONE);

  public static state_protect4_a decode(XdrReader r) {
    int how = r.int32();
    switch (how) {
      case Nfs4.SP4_NONE -> {}
      case Nfs4.SP4_MACH_CRED -> {
        Xdr4.skipBitmap(r); // spo_must_enforce
        Xdr4.skipBitmap(r); // spo_must_allow
      }
      case Nfs4.SP4_SSV -> {
        Xdr4.skipBitmap(r);
        Xdr4.skipBitmap(r);
        for (int list = 0; list < 2; list++) { // ssp_hash_algs, ssp_encr_algs: sec_oid4<>
          int n = Xdr4.count(r, Nfs4.ARRAY_LIMIT);
          for (int i = 0; i < n; i++) {
            r.opaque(Nfs4.NFS4_OPAQUE_LIMIT);
          }
        }
        r.int32(); // ssp_window
        r.int32(); // ssp_num_gss_handles
      }
      default -> throw new XdrException("state_protect_how4 " + how);
    }
    return new state_protect4_a(how);
  }

  /** Encodes the arm with empty contents (tests and clients only send SP4_NONE in practice). */
  @Override
  public void encode(XdrWriter w) {
    w.int32(how);
    if (how == Nfs4.SP4_MACH_CRED) {
      w.int32(0).int32(0);
    } else if (how == Nfs4.SP4_SSV) {
      w.int32(0).int32(0).int32(0).int32(0).int32(0).int32(0);
    }
  }
}
