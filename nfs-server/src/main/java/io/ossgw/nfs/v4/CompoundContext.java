package io.ossgw.nfs.v4;

import io.ossgw.core.vfs.Caller;
import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Nfs4Exception;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.state.Session;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * What the operations of one COMPOUND share (RFC 8881 §16.2.3): the caller, the server state, the position in the
 * compound, once SEQUENCE has run the session and slot and the most bytes the reply may take, the bytes it takes so
 * far, and the current and saved filehandles. Used by one thread.
 */
final class CompoundContext {
  /** An RPC reply header before the COMPOUND4res: xid, REPLY, MSG_ACCEPTED, an AUTH_NONE verifier, SUCCESS. */
  static final int RPC_REPLY_HEADER = 24;
  /** A result that is a bare status: its resop and status. */
  static final int ERROR_RESULT = 8;

  final ServerState server;
  final ClientTable clients;
  final Peer peer;
  /** The RPC caller's identity, e.g. "sys:1000" for AUTH_SYS uid 1000; compared for EXCHANGE_ID and CREATE_SESSION. */
  final String principal;
  /** A hash of the whole request, telling a true retry from a new request reusing a sequence id (a false retry). */
  private final long requestHash;
  final int numops;
  /** Buffers for reply data (READ): {@link io.ossgw.nfs.rpc.ReplyMemory#forReply} of the call. */
  private final IntFunction<ByteBuffer> replyBuffers;
  /** The session SEQUENCE bound this compound to, null before (or without) it. */
  Session session;
  int slotid;
  /** The position of the operation running (0 for the first). */
  int index;
  /**
   * The most bytes the reply may take, RPC header included (RFC 8881 §18.36.3): set by SEQUENCE to the session's
   * ca_maxresponsesize, or with sa_cachethis to its ca_maxresponsesize_cached; unbounded without a session.
   */
  long replyLimit = Long.MAX_VALUE;
  /** What a result over {@link #replyLimit} becomes: NFS4ERR_REP_TOO_BIG, with sa_cachethis _TO_CACHE. */
  int tooBig = Nfs4.NFS4ERR_REP_TOO_BIG;
  /** Bytes of the reply so far: the RPC header, the COMPOUND4res header and the results of the operations run. */
  long replyBytes;
  /** Set by SEQUENCE when the request is a retransmission: the cached reply to send instead. */
  byte[] replay;
  /** The current filehandle (RFC 8881 §16.2.3.1), null until an operation sets it. */
  V4Target current;
  /** The saved filehandle (SAVEFH/RESTOREFH), null until SAVEFH. */
  V4Target saved;
  /** The current stateid (RFC 8881 §16.2.3.1.2), null until OPEN, OPEN_DOWNGRADE, CLOSE, LOCK or LOCKU sets it. */
  private stateid4 currentStateid;
  /** The current filehandle when the current stateid was set: a later filehandle change voids the stateid. */
  private V4Target currentStateidFh;

  CompoundContext(ServerState server, Peer peer, long requestHash, int numops, IntFunction<ByteBuffer> replyBuffers) {
    this.server = server;
    this.clients = server.clients;
    this.peer = peer;
    this.principal = peer.principal();
    this.requestHash = requestHash;
    this.numops = numops;
    this.replyBuffers = replyBuffers;
  }

  /** A buffer of {@code size} bytes for reply data, encoded without a copy (position 0, limit {@code size}). */
  ByteBuffer replyBuffer(int size) {
    return replyBuffers.apply(size);
  }

  /**
   * The current filehandle.
   *
   * @throws Nfs4Exception NFS4ERR_NOFILEHANDLE if no operation of this compound set one
   */
  V4Target current() {
    if (current == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_NOFILEHANDLE, "no current filehandle");
    }
    return current;
  }

  /**
   * The filehandle resolver and pseudo file system.
   *
   * @throws Nfs4Exception NFS4ERR_SERVERFAULT on a dispatcher built without exports (session-machinery tests)
   */
  V4Handles fhs() {
    if (server.fhs == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_SERVERFAULT, "no exports");
    }
    return server.fhs;
  }

  /**
   * The caller's identity on the current filehandle's export, after squashing (anonymous on a pseudo node).
   *
   * @throws Nfs4Exception NFS4ERR_NOFILEHANDLE without a current filehandle
   */
  Caller caller() {
    return fhs().caller(peer, current());
  }

  /**
   * Puts {@code now} in place of {@code was} as the current and the saved filehandle, whichever held it ({@link
   * V4Moved}): the same filehandle, resolved after a rename. A current stateid bound to it stays bound.
   *
   * @return false if neither held {@code was}
   */
  boolean moved(V4Target was, V4Target now) {
    boolean found = false;
    if (current == was) {
      current = now;
      found = true;
    }
    if (saved == was) {
      saved = now;
      found = true;
    }
    if (currentStateidFh == was) {
      currentStateidFh = now;
    }
    return found;
  }

  /** Sets the current stateid (RFC 8881 §16.2.3.1.2), bound to the current filehandle. */
  void currentStateid(stateid4 id) {
    currentStateid = id;
    currentStateidFh = current;
  }

  /**
   * The stateid an operation names: {@code given}, or for the special "current stateid" (seqid 1, other zero) the
   * one an earlier operation of this compound set (RFC 8881 §16.2.3.1.2). An operation that changed the current
   * filehandle since (PUTFH, LOOKUP...) voids it.
   *
   * @throws Nfs4Exception NFS4ERR_BAD_STATEID for the current stateid when none is set
   */
  stateid4 stateid(stateid4 given) {
    if (!given.equals(stateid4.CURRENT)) {
      return given;
    }
    if (currentStateid == null || currentStateidFh != current) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, "no current stateid");
    }
    return currentStateid;
  }

  /**
   * Bytes the running operation's result may take: what is left under {@link #replyLimit}, less an error result's
   * room when operations follow (so a later one can always be answered {@link #tooBig}).
   */
  long room() {
    return replyLimit - replyBytes - (index < numops - 1 ? ERROR_RESULT : 0);
  }

  /** The error of a result that would take more than {@link #room()}. */
  Nfs4Exception tooBig(String what) {
    return new Nfs4Exception(tooBig, what + " over the reply size of " + replyLimit + " bytes");
  }

  /** A hash of the whole request, telling a true retry from a new request reusing a sequence id (a false retry). */
  long requestHash() {
    return requestHash;
  }

  /** The request's length in bytes (the COMPOUND4args, as the hash counts it). */
  int requestLength() {
    return (int) (requestHash >>> 32);
  }
}
