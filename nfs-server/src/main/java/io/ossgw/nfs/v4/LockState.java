package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable;
import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.state.StateTable;
import java.util.HexFormat;

/**
 * The lock state of one lock owner on one file (RFC 8881 §8.2, §9.4, §18.10): what a lock stateid names. One per
 * (client, lock owner, file), made by the owner's first LOCK through an open stateid (open_to_lock_owner4) and named
 * by its lock stateid afterwards; its seqid grows by one per LOCK and LOCKU. The locks themselves are in the
 * gateway's one {@link LockTable} (the table NLM uses), under {@link #owner()}, so NFSv3 (NLM) and NFSv4.1 clients
 * contend on the same file.
 *
 * <p>Lock table names: the file is (export id, fileid), exactly as NLM keys it; the owner is client
 * {@code "v4:" + hex client id} (unique across restarts, since client ids carry the boot time) and id = the lock
 * owner's opaque bytes in hex.
 */
public final class LockState extends StateTable.State implements OpenState.Derived {
  /** The prefix of the lock table client names of NFSv4 clients. */
  static final String CLIENT_PREFIX = "v4:";

  private final byte[] lockOwner;
  private final FileKey file;
  private final OpenState open;
  private final LockTable.Owner owner;
  private final Object mu = new Object();
  private boolean freed;

  /**
   * @param client the client (from the session)
   * @param lockOwner the lock_owner4 opaque bytes
   * @param file the file, as the lock table names it
   * @param open the open state the first LOCK came through (its CLOSE is refused while this holds locks)
   */
  LockState(ClientRecord client, byte[] lockOwner, FileKey file, OpenState open) {
    super(client);
    this.lockOwner = lockOwner.clone();
    this.file = file;
    this.open = open;
    this.owner = new LockTable.Owner(clientName(client), HexFormat.of().formatHex(lockOwner));
  }

  /** The lock table's client name of an NFSv4 client (what {@link LockTable#releaseClient} takes). */
  static String clientName(ClientRecord client) {
    return CLIENT_PREFIX + Long.toHexString(client.clientid());
  }

  /** The lock owner's bytes (lock_owner4.owner). */
  byte[] lockOwner() {
    return lockOwner.clone();
  }

  FileKey file() {
    return file;
  }

  /** The open state this lock state was made through (READ and WRITE with a lock stateid use its access). */
  @Override
  public OpenState open() {
    return open;
  }

  /** The owner of this state's locks in the lock table. */
  LockTable.Owner owner() {
    return owner;
  }

  /** Whether the lock table holds a lock of this owner on this file. */
  boolean holdsLocks(LockTable locks) {
    return locks.locks(file).stream().anyMatch(l -> l.owner().equals(owner));
  }

  /**
   * Runs a change of this state's locks unless the state was freed (FREE_STATEID): LOCK and LOCKU on one state and
   * its freeing are serialized here (not on this object, whose monitor {@link StateTable} takes).
   *
   * @return the change's result, or null if the state was freed
   */
  <T> T ifLive(java.util.function.Supplier<T> change) {
    synchronized (mu) {
      return freed ? null : change.get();
    }
  }

  /** Marks this state freed if its owner holds no lock on the file (FREE_STATEID). */
  boolean freeIfUnlocked(LockTable locks) {
    synchronized (mu) {
      if (holdsLocks(locks)) {
        return false;
      }
      freed = true;
      return true;
    }
  }

  /**
   * Whether any lock owner holds byte-range locks on the file through this open: CLOSE of the open is then
   * NFS4ERR_LOCKS_HELD (RFC 8881 §18.2.3) and so is FREE_STATEID of it (§18.38.3).
   *
   * @param open an open state
   */
  public static boolean held(ServerState server, OpenState open) {
    return server.lockStates.ofOpen(open).stream().anyMatch(l -> l.holdsLocks(server.locks));
  }

  /**
   * Forgets the lock states made through an open that is closed (CLOSE frees the open's lock stateids with it, as
   * the Linux server does; call after {@link #held} said none holds locks).
   */
  public static void closed(ServerState server, OpenState open) {
    for (LockState l : server.lockStates.ofOpen(open)) {
      server.lockStates.remove(l);
      server.states.remove(l);
    }
  }

  @Override
  public String toString() {
    return "lock state of " + owner + " on " + file;
  }
}
