package io.ossgw.core.cluster;

/**
 * A request to the cluster store (Valkey or Redis) failed. {@link #kind()} says what the caller may do: retry
 * ({@link Kind#UNREACHABLE}), or report and stop trying ({@link Kind#FULL}, {@link Kind#AUTH}, {@link Kind#OTHER}).
 * Nothing the store held is changed by a failed request (every multi-key change is one Lua script, which the store
 * runs atomically or not at all).
 */
public final class ClusterStoreException extends RuntimeException {
  /** What went wrong. */
  public enum Kind {
    /** Connection refused, reset or closed, or no reply within the timeout: worth retrying. */
    UNREACHABLE,
    /** The store is out of memory ({@code OOM command not allowed when used memory > 'maxmemory'}). */
    FULL,
    /** {@code NOAUTH} / {@code WRONGPASS}: no password, or a wrong one. */
    AUTH,
    /** Anything else the store answered with (a script error, a read-only replica, a wrong type). */
    OTHER
  }

  private final Kind kind;

  /**
   * @param kind what went wrong
   * @param message what was asked and what the store answered
   * @param cause the client's exception, or null
   */
  public ClusterStoreException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** What went wrong. */
  public Kind kind() {
    return kind;
  }
}
