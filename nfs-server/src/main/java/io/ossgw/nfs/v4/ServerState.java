package io.ossgw.nfs.v4;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.fs.DirCursors;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.v4.state.ClientTable;
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
  /** READDIR positions, bounded as v3's (NfsServer's Nfs3Limits: 2,000,000 names, 10 minutes idle). */
  final DirCursors cursors = new DirCursors(2_000_000, Duration.ofMinutes(10));
  /** Open and lock stateids (RFC 8881 §8.2). */
  final StateTable states = new StateTable();

  /**
   * @param clients the v4.1 client and session state
   * @param exports the exports; null only for tests of the session machinery (filehandle operations then fail with
   *     NFS4ERR_SERVERFAULT)
   * @param table the inode table NFSv3 uses (null with {@code exports})
   * @param locks the lock table NLM uses (null with {@code exports})
   */
  public ServerState(ClientTable clients, Exports exports, InodeTable table, LockTable locks) {
    this.clients = clients;
    this.exports = exports;
    this.table = table;
    this.handles = table == null ? null : new FileHandles(table.secret());
    this.locks = locks;
    this.fhs = exports == null ? null : new V4Handles(exports, table, handles);
    this.attrs = fhs == null ? null : new Fattr4(fhs, clients.limits().lease());
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
}
