package io.ossgw.core.cluster;

/**
 * Whether this node may serve and write now, and under which fencing token. A {@link Lease} is one; {@link #ALWAYS}
 * is the single gateway's (no cluster store configured: always the holder, token 1, as before the cluster existed).
 *
 * <p>Checks are local and cheap (volatile reads and one clock read): they sit on every OSS write
 * ({@link FencedObjectStore}).
 */
public interface Fence {
  /** The single gateway: always valid, token 1. */
  Fence ALWAYS = new Fence() {
    @Override
    public boolean valid() {
      return true;
    }

    @Override
    public long token() {
      return 1;
    }

    @Override
    public boolean validFor(long token) {
      return token == 1;
    }

    @Override
    public String toString() {
      return "single gateway (no cluster store)";
    }
  };

  /** True while this node holds the lease by its own clock (and so may serve and write). */
  boolean valid();

  /**
   * The fencing token of the current holding: larger for every acquisition in the cluster, 0 while this node does not
   * hold the lease. Work started under one token must not complete under another ({@link #validFor}).
   */
  long token();

  /** True while this node holds the lease under exactly {@code token}. */
  boolean validFor(long token);
}
