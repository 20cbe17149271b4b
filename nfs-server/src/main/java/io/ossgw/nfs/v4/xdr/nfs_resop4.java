package io.ossgw.nfs.v4.xdr;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.XdrWriter;

/**
 * RFC 8881 §16.2.2 nfs_resop4: an operation number, its nfsstat4, and on NFS4_OK its resok body (none for operations
 * whose result is a bare status). A few results carry a body on an error too: SETATTR's attrsset (sent whatever the
 * status), LOCK and LOCKT's NFS4ERR_DENIED (the conflicting lock, LOCK4denied).
 *
 * @param resok the body (on NFS4_OK, or the error body of LOCK/LOCKT NFS4ERR_DENIED), else null
 */
public record nfs_resop4(int op, int status, XdrType resok) implements XdrType {
  /** A result with a status and no body. */
  public static nfs_resop4 of(int op, int status) {
    return new nfs_resop4(op, status, null);
  }

  /**
   * Decodes one result, knowing the bodies of the session operations this package implements (for tests and
   * clients).
   */
  public static nfs_resop4 decode(XdrReader r) {
    int op = r.int32();
    int status = r.int32();
    XdrType body = null;
    if (status == Nfs4.NFS4_OK) {
      body = switch (op) {
        case Nfs4.OP_EXCHANGE_ID -> EXCHANGE_ID4resok.decode(r);
        case Nfs4.OP_CREATE_SESSION -> CREATE_SESSION4resok.decode(r);
        case Nfs4.OP_SEQUENCE -> SEQUENCE4resok.decode(r);
        case Nfs4.OP_BIND_CONN_TO_SESSION -> BIND_CONN_TO_SESSION4resok.decode(r);
        // filehandles and attributes
        case Nfs4.OP_GETFH -> GETFH4resok.decode(r);
        case Nfs4.OP_GETATTR -> GETATTR4resok.decode(r);
        case Nfs4.OP_ACCESS -> ACCESS4resok.decode(r);
        case Nfs4.OP_SECINFO, Nfs4.OP_SECINFO_NO_NAME -> SECINFO4resok.decode(r);
        case Nfs4.OP_OPEN -> OPEN4resok.decode(r);
        case Nfs4.OP_CLOSE, Nfs4.OP_OPEN_DOWNGRADE -> stateid4.decode(r);
        case Nfs4.OP_READ -> READ4resok.decode(r);
        case Nfs4.OP_WRITE -> WRITE4resok.decode(r);
        case Nfs4.OP_COMMIT -> COMMIT4resok.decode(r);
        // byte-range locks and stateids
        case Nfs4.OP_LOCK, Nfs4.OP_LOCKU -> stateid4.decode(r);
        case Nfs4.OP_TEST_STATEID -> TEST_STATEID4resok.decode(r);
        // directories and the namespace
        case Nfs4.OP_READDIR -> READDIR4resok.decode(r);
        case Nfs4.OP_READLINK -> READLINK4resok.decode(r);
        case Nfs4.OP_CREATE -> CREATE4resok.decode(r);
        case Nfs4.OP_REMOVE -> REMOVE4resok.decode(r);
        case Nfs4.OP_RENAME -> RENAME4resok.decode(r);
        case Nfs4.OP_LINK -> LINK4resok.decode(r);
        default -> null;
      };
    } else if (status == Nfs4.NFS4ERR_DENIED && (op == Nfs4.OP_LOCK || op == Nfs4.OP_LOCKT)) {
      body = LOCK4denied.decode(r);
    }
    if (op == Nfs4.OP_SETATTR) { // attrsset follows whatever the status
      body = SETATTR4res.decode(r);
    }
    return new nfs_resop4(op, status, body);
  }

  @Override
  public void encode(XdrWriter w) {
    w.int32(op).int32(status);
    if (resok != null) {
      resok.encode(w);
    } else if (op == Nfs4.OP_SETATTR) { // SETATTR4res has attrsset whatever the status (RFC 8881 §18.30.2)
      new SETATTR4res(bitmap4.EMPTY).encode(w);
    }
  }
}
