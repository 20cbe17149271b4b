package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrException;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §18.16.1 open_claim4: what the OPEN names and why. CLAIM_NULL and CLAIM_DELEGATE_PREV carry a component
 * name, CLAIM_PREVIOUS the delegation type held before the restart, CLAIM_DELEGATE_CUR a delegation stateid and a
 * name, CLAIM_DELEG_CUR_FH a delegation stateid, CLAIM_FH and CLAIM_DELEG_PREV_FH nothing (the current filehandle is
 * the file).
 *
 * @param claim the open_claim_type4
 * @param file the component name (raw bytes, checked by OPEN), or null
 * @param delegateType CLAIM_PREVIOUS's open_delegation_type4
 * @param delegateStateid CLAIM_DELEGATE_CUR's and CLAIM_DELEG_CUR_FH's stateid, or null
 */
public record open_claim4(int claim, byte[] file, int delegateType, stateid4 delegateStateid) implements XdrType {
  /** Longest component name decoded; longer names are NFS4ERR_NAMETOOLONG by then anyway, shorter ones checked. */
  public static final int NAME_LIMIT = 4096;

  public static open_claim4 nullClaim(String name) {
    return new open_claim4(Nfs4.CLAIM_NULL, name.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, null);
  }

  public static open_claim4 fh() {
    return new open_claim4(Nfs4.CLAIM_FH, null, 0, null);
  }

  public static open_claim4 previous(int delegateType) {
    return new open_claim4(Nfs4.CLAIM_PREVIOUS, null, delegateType, null);
  }

  public static open_claim4 decode(XdrReader r) {
    int claim = r.int32();
    return switch (claim) {
      case Nfs4.CLAIM_NULL, Nfs4.CLAIM_DELEGATE_PREV -> new open_claim4(claim, r.opaque(NAME_LIMIT), 0, null);
      case Nfs4.CLAIM_PREVIOUS -> new open_claim4(claim, null, r.int32(), null);
      case Nfs4.CLAIM_DELEGATE_CUR -> {
        stateid4 s = stateid4.decode(r);
        yield new open_claim4(claim, r.opaque(NAME_LIMIT), 0, s);
      }
      case Nfs4.CLAIM_DELEG_CUR_FH -> new open_claim4(claim, null, 0, stateid4.decode(r));
      case Nfs4.CLAIM_FH, Nfs4.CLAIM_DELEG_PREV_FH -> new open_claim4(claim, null, 0, null);
      default -> throw new XdrException("open_claim_type4 " + claim);
    };
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(claim);
    switch (claim) {
      case Nfs4.CLAIM_NULL, Nfs4.CLAIM_DELEGATE_PREV -> w.opaque(file);
      case Nfs4.CLAIM_PREVIOUS -> w.int32(delegateType);
      case Nfs4.CLAIM_DELEGATE_CUR -> {
        delegateStateid.encode(w);
        w.opaque(file);
      }
      case Nfs4.CLAIM_DELEG_CUR_FH -> delegateStateid.encode(w);
      default -> {}
    }
  }
}
