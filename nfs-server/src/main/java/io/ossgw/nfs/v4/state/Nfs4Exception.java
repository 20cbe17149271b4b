package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.xdr.XdrType;

/**
 * An operation fails with an nfsstat4 (RFC 8881 §15). The COMPOUND dispatcher turns it into the operation's result
 * and stops the compound. Unchecked and stackless: it is control flow, not a bug report.
 */
public final class Nfs4Exception extends RuntimeException {
  private final int status;
  private final transient XdrType body;

  public Nfs4Exception(int status, String message) {
    this(status, message, null);
  }

  /**
   * A failure whose result carries a body (LOCK and LOCKT's NFS4ERR_DENIED with the conflicting lock, RFC 8881
   * §18.10.2).
   */
  public Nfs4Exception(int status, String message, XdrType body) {
    super(message, null, false, false);
    this.status = status;
    this.body = body;
  }

  /** The body of the error result, or null for a bare status. */
  public XdrType body() {
    return body;
  }

  /** The nfsstat4 code. */
  public int status() {
    return status;
  }
}
