package io.ossgw.nfs.v4;

import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;

/**
 * One NFSv4.1 operation (RFC 8881 §18): how to read its arguments and how to run it. {@link Compound} decodes an
 * operation's arguments just before running it, so processing stops before anything later is read.
 *
 * @param <A> the arguments
 */
interface Operation<A> {
  /** The nfs_opnum4. */
  int op();

  /**
   * Reads the arguments.
   *
   * @throws io.ossgw.nfs.xdr.XdrException if they are truncated or out of bounds (the result is NFS4ERR_BADXDR)
   */
  A decode(XdrReader r);

  /**
   * Runs the operation.
   *
   * @return the resok body, or null for an operation whose result is a bare status
   * @throws io.ossgw.nfs.v4.state.Nfs4Exception to fail with that nfsstat4
   */
  XdrType run(CompoundContext ctx, A args);
}
