package io.ossgw.nfs.v4.state;

/**
 * An operation fails with an nfsstat4 (RFC 8881 §15). The COMPOUND dispatcher turns it into the operation's result
 * and stops the compound. Unchecked and stackless: it is control flow, not a bug report.
 */
public final class Nfs4Exception extends RuntimeException {
  private final int status;

  public Nfs4Exception(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  /** The nfsstat4 code. */
  public int status() {
    return status;
  }
}
