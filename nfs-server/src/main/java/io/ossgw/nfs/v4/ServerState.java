package io.ossgw.nfs.v4;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.fs.DirCursors;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.fs.WriteVerifier;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.ClientStore;
import io.ossgw.nfs.v4.state.ClientTable;
import io.ossgw.nfs.v4.state.Grace;
import io.ossgw.nfs.v4.state.Opens;
import io.ossgw.nfs.v4.state.StateTable;
import java.time.Duration;

/**
 * What every COMPOUND of one server shares: the client and session state, the exports (the same {@link Exports},
 * CIDR and squash rules as NFSv3), the inode table and handle format shared with NFSv3 (so a handle survives restarts
 * and means the same object in both versions) and the byte-range lock table shared with NLM. Thread-safe (each part
 * is).
 */
public final class ServerState {
  final ClientTable clients;
  final Exports exports;
  final InodeTable table;
  final FileHandles handles;
  final LockTable locks;
  /** Filehandles, the pseudo file system and lookups (null without exports). */
  final V4Handles fhs;
  /** The fattr4 codec (null without exports). */
  final Fattr4 attrs;
  /** READDIR positions, bounded as v3's (NfsServer's Nfs3Limits: 8 MB of positions, 10 minutes idle). */
  final DirCursors cursors = new DirCursors(8L << 20, Duration.ofMinutes(10));
  /** Open and lock stateids (RFC 8881 §8.2). */
  final StateTable states = new StateTable();
  /** The open handles NFSv3 shares (null without exports). */
  final OpenFiles open;
  /** The write verifier NFSv3 shares. */
  final WriteVerifier verifier;
  /** The grace period after a start (RFC 8881 §8.4.2). */
  final Grace grace;
  /** The opens of every client by file: share reservations, one open state per (open owner, file). */
  final Opens opens;
  /** The lock states (one per lock owner and file) by owner and file; their locks are in {@link #locks}. */
  final LockStates lockStates = new LockStates();

  /**
   * @param clients the v4.1 client and session state
   * @param exports the exports; null only for tests of the session machinery (filehandle operations then fail with
   *     NFS4ERR_SERVERFAULT)
   * @param table the inode table NFSv3 uses (null with {@code exports})
   * @param locks the lock table NLM uses (null with {@code exports})
   */
  public ServerState(ClientTable clients, Exports exports, InodeTable table, LockTable locks) {
    this(clients, exports, table, locks, null, new WriteVerifier(), null);
  }

  /**
   * @param clients the v4.1 client and session state
   * @param exports the exports; null only for tests of the session machinery
   * @param table the inode table NFSv3 uses (null with {@code exports})
   * @param locks the lock table NLM uses (null with {@code exports})
   * @param open the open handles NFSv3 uses (null with {@code exports}); not closed by this state
   * @param verifier the write verifier NFSv3 uses
   * @param grace the grace period; null for none
   */
  public ServerState(ClientTable clients, Exports exports, InodeTable table, LockTable locks, OpenFiles open,
      WriteVerifier verifier, Grace grace) {
    this.open = open;
    this.verifier = verifier;
    this.grace = grace != null ? grace : new Grace(java.time.Clock.systemUTC(), java.time.Duration.ZERO);
    this.opens = new Opens(states);
    // a client dropped (lease expired, DESTROY_CLIENTID, a new boot of it) closes its files: what they hold uploads
    clients.onRemove(opens::closeClient);
    // ... and releases its byte-range locks (other clients, NLM ones too, may then take them)
    clients.onRemove(this::releaseLocks);
    this.clients = clients;
    this.exports = exports;
    this.table = table;
    this.handles = table == null ? null : new FileHandles(table.secret());
    this.locks = locks;
    this.fhs = exports == null ? null : new V4Handles(exports, table, handles, open.names());
    this.attrs = fhs == null ? null : new Fattr4(fhs, clients.limits().lease());
  }

  /**
   * Keeps the client record ({@link ClientStore}) up to date: a client is written down when it first gets open or
   * lock state and removed when it is dropped, so that after a restart it may reclaim in the grace period.
   */
  public void recordClients(ClientStore store) {
    states.onFirstState(store::recordState);
    clients.onConfirm(store::confirmed);
    clients.onRemove(store::forget);
  }

  /** A dropped client's lock states go, and its locks leave the lock table. */
  private void releaseLocks(ClientRecord client) {
    for (LockState l : lockStates.removeClient(client)) {
      states.remove(l);
    }
    if (locks != null) {
      locks.releaseClient(LockState.clientName(client));
    }
  }

  /** Lock states held now (metrics: one per lock owner and file). */
  public int lockStateCount() {
    return lockStates.size();
  }

  /** Filehandles and the pseudo file system; null only without exports (tests of the session machinery). */
  public V4Handles handles4() {
    return fhs;
  }

  /** The fattr4 codec; null only without exports. */
  public Fattr4 attrs() {
    return attrs;
  }

  public ClientTable clients() {
    return clients;
  }

  public StateTable states() {
    return states;
  }

  /** The opens (metrics, LOCK's open_to_lock_owner4). */
  public Opens opens() {
    return opens;
  }

  /** The grace period (OPEN CLAIM_PREVIOUS, LOCK reclaim). */
  public Grace grace() {
    return grace;
  }
}
