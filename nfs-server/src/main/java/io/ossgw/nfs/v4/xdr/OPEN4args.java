package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.16.1 OPEN4args with its openflag4 and createhow4 unions flattened: {@code opentype} OPEN4_NOCREATE or
 * OPEN4_CREATE; with OPEN4_CREATE a {@code createmode} (UNCHECKED4 and GUARDED4 carry {@code createattrs},
 * EXCLUSIVE4 a {@code verifier}, EXCLUSIVE4_1 both).
 *
 * @param seqid ignored in 4.1 (§18.16.3)
 * @param shareAccess OPEN4_SHARE_ACCESS_* in the low bits and the OPEN4_SHARE_ACCESS_WANT_* flags above
 * @param shareDeny OPEN4_SHARE_DENY_*
 * @param owner the open owner
 * @param createattrs the attributes to set on a created file, or null
 * @param verifier EXCLUSIVE4 / EXCLUSIVE4_1 verifier4 (8 bytes), or null
 */
public record OPEN4args(int seqid, int shareAccess, int shareDeny, state_owner4 owner, int opentype, int createmode,
    fattr4 createattrs, byte[] verifier, open_claim4 claim) implements XdrType {

  public static OPEN4args decode(XdrReader r) {
    int seqid = r.int32();
    int access = r.int32();
    int deny = r.int32();
    state_owner4 owner = state_owner4.decode(r);
    int opentype = r.enumValue(Nfs4.OPEN4_NOCREATE, Nfs4.OPEN4_CREATE);
    int mode = 0;
    fattr4 attrs = null;
    byte[] verf = null;
    if (opentype == Nfs4.OPEN4_CREATE) {
      mode = r.int32();
      switch (mode) {
        case Nfs4.UNCHECKED4, Nfs4.GUARDED4 -> attrs = fattr4.decode(r);
        case Nfs4.EXCLUSIVE4 -> verf = r.fixedOpaque(Nfs4.NFS4_VERIFIER_SIZE);
        case Nfs4.EXCLUSIVE4_1 -> {
          verf = r.fixedOpaque(Nfs4.NFS4_VERIFIER_SIZE);
          attrs = fattr4.decode(r);
        }
        default -> throw new XdrException("createmode4 " + mode);
      }
    }
    return new OPEN4args(seqid, access, deny, owner, opentype, mode, attrs, verf, open_claim4.decode(r));
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(seqid).int32(shareAccess).int32(shareDeny);
    owner.encode(w);
    w.int32(opentype);
    if (opentype == Nfs4.OPEN4_CREATE) {
      w.int32(createmode);
      switch (createmode) {
        case Nfs4.UNCHECKED4, Nfs4.GUARDED4 -> createattrs.encode(w);
        case Nfs4.EXCLUSIVE4 -> w.fixedOpaque(verifier);
        default -> {
          w.fixedOpaque(verifier);
          createattrs.encode(w);
        }
      }
    }
    claim.encode(w);
  }
}
