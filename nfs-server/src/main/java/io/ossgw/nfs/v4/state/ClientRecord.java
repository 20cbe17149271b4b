package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.CREATE_SESSION4resok;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A client record (RFC 8881 §2.4, §18.35.4): the client owner, its boot verifier, the principal that created it, its
 * client id, whether a CREATE_SESSION has confirmed it, the CREATE_SESSION sequence slot (sequence id and cached
 * reply, §18.36.4) and the lease; and the client address that made it, whose share of the state budget it and its
 * sessions are charged to ({@link StateBudget}). Guarded by {@link ClientTable}'s monitor.
 */
public final class ClientRecord {
  final long clientid;
  final byte[] owner;
  final byte[] verifier;
  final String principal;
  /** The address of the EXCHANGE_ID that made the record: its state is charged to this address's share. */
  final InetAddress address;
  /** The bytes charged for the record itself ({@link StateBudget#recordBytes}). */
  final long charged;
  boolean confirmed;
  /** The last csa_sequence run; the next CREATE_SESSION must carry this + 1. */
  int createSessionSeq;
  /** The reply to the CREATE_SESSION with {@link #createSessionSeq}, for its retransmission. */
  CREATE_SESSION4resok createSessionReply;
  /** Lease end in the table clock's milliseconds. */
  long leaseEnd;
  /** Set by RECLAIM_COMPLETE; volatile: {@link Grace} reads it outside the table's monitor. */
  volatile boolean reclaimComplete;
  /** Whether {@link StateTable} has given this record state (guarded by the state table's monitor). */
  boolean hadState;
  final Map<io.ossgw.nfs.v4.xdr.sessionid4, Session> sessions = new LinkedHashMap<>();

  /** A record made from the loopback address (tests of the state tables). */
  ClientRecord(long clientid, byte[] owner, byte[] verifier, String principal, int firstSeq, long leaseEnd) {
    this(clientid, owner, verifier, principal, InetAddress.getLoopbackAddress(), firstSeq, leaseEnd);
  }

  ClientRecord(long clientid, byte[] owner, byte[] verifier, String principal, InetAddress address, int firstSeq,
      long leaseEnd) {
    this.clientid = clientid;
    this.owner = owner.clone();
    this.verifier = verifier.clone();
    this.principal = principal;
    this.address = address;
    this.charged = StateBudget.recordBytes(owner.length, principal.length());
    this.createSessionSeq = firstSeq - 1;
    this.leaseEnd = leaseEnd;
  }

  public long clientid() {
    return clientid;
  }

  /** The client owner (co_ownerid), the client's identity across its and the server's restarts. */
  public byte[] owner() {
    return owner.clone();
  }

  boolean sameVerifier(byte[] v) {
    return Arrays.equals(verifier, v);
  }

  @Override
  public String toString() {
    return "client " + Long.toHexString(clientid) + (confirmed ? "" : " (unconfirmed)");
  }
}
