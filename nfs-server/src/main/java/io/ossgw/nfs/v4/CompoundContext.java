package io.ossgw.nfs.v4;

import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Session;
import java.util.zip.CRC32C;

/**
 * What the operations of one COMPOUND share (RFC 8881 §16.2.3): the caller, the server state, the position in the
 * compound and, once SEQUENCE has run, the session and slot. Later operations add the current and saved filehandles
 * here. Used by one thread.
 */
final class CompoundContext {
  final ClientTable clients;
  /** The RPC caller's identity, e.g. "sys:1000" for AUTH_SYS uid 1000; compared for EXCHANGE_ID and CREATE_SESSION. */
  final String principal;
  final byte[] request;
  final int numops;
  /** The session SEQUENCE bound this compound to, null before (or without) it. */
  Session session;
  int slotid;
  /** Set by SEQUENCE when the request is a retransmission: the cached reply to send instead. */
  byte[] replay;

  CompoundContext(ClientTable clients, String principal, byte[] request, int numops) {
    this.clients = clients;
    this.principal = principal;
    this.request = request;
    this.numops = numops;
  }

  /** A hash of the whole request, telling a true retry from a new request reusing a sequence id (a false retry). */
  long requestHash() {
    CRC32C c = new CRC32C();
    c.update(request);
    return ((long) request.length << 32) | c.getValue();
  }
}
