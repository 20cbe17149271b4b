package io.ossgw.nfs.rpc;

/**
 * Thrown by a program to refuse a call at the RPC level: the server answers MSG_DENIED / AUTH_ERROR with
 * {@link #stat()} (RFC 5531 §9), e.g. {@code AUTH_TOOWEAK} for an AUTH_NONE call on an export that does not allow
 * anonymous access. Unchecked, so it passes through the procedure handlers.
 */
public final class AuthRefused extends RuntimeException {
  private final int stat;

  /**
   * @param stat an {@link org.dcache.oncrpc4j.rpc.RpcAuthStat} value
   * @param message why, for the server's debug log
   */
  public AuthRefused(int stat, String message) {
    super(message, null, false, false);
    this.stat = stat;
  }

  /** The auth_stat sent to the client. */
  public int stat() {
    return stat;
  }
}
