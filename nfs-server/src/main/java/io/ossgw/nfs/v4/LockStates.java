package io.ossgw.nfs.v4;

import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.nfs.v4.state.ClientRecord;
import io.ossgw.nfs.v4.state.OpenState;
import io.ossgw.nfs.v4.state.StateTable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lock states of one server by (client, lock owner, file), so that a lock owner's LOCKs on a file share one
 * stateid (RFC 8881 §8.2.4: one lock stateid per lock owner and file). The stateids themselves are in {@link
 * StateTable}; this index is kept beside it. Thread-safe (one monitor; a few map operations per call).
 */
final class LockStates {
  private record Key(ClientRecord client, ByteBuffer owner, FileKey file) {}

  private final Map<Key, LockState> byKey = new HashMap<>();
  /** The same states by the open they were made through (CLOSE asks for them; identity keys). */
  private final Map<OpenState, List<LockState>> byOpen = new java.util.IdentityHashMap<>();

  private static Key key(ClientRecord client, byte[] owner, FileKey file) {
    return new Key(client, ByteBuffer.wrap(owner.clone()), file);
  }

  /** The lock state of this owner on this file, or null. */
  synchronized LockState find(ClientRecord client, byte[] owner, FileKey file) {
    return byKey.get(key(client, owner, file));
  }

  /**
   * The lock state of this owner on this file, made (and entered in {@code states}) if there is none.
   *
   * @return the state and whether it was made now
   */
  synchronized Made findOrAdd(StateTable states, ClientRecord client, byte[] owner, FileKey file,
      OpenState open) {
    Key k = key(client, owner, file);
    LockState s = byKey.get(k);
    if (s != null) {
      return new Made(s, false);
    }
    s = new LockState(client, owner, file, open);
    states.add(s);
    byKey.put(k, s);
    byOpen.computeIfAbsent(open, o -> new ArrayList<>(1)).add(s);
    return new Made(s, true);
  }

  record Made(LockState state, boolean isNew) {}

  /**
   * Frees a lock state whose owner holds no lock on the file (FREE_STATEID): marked freed and removed from the index;
   * the caller removes its stateid from the table.
   *
   * @return false if it holds locks (nothing changes)
   */
  boolean freeIfUnlocked(LockState s, io.ossgw.core.lock.LockTable locks) {
    if (!s.freeIfUnlocked(locks)) {
      return false;
    }
    remove(s);
    return true;
  }

  /** Removes one lock state from the index (its stateid is removed from the table by the caller). */
  synchronized void remove(LockState s) {
    if (byKey.remove(key(s.client(), s.lockOwner(), s.file()), s)) {
      unlinkOpen(s);
    }
  }

  private void unlinkOpen(LockState s) {
    List<LockState> l = byOpen.get(s.open());
    if (l != null && l.remove(s) && l.isEmpty()) {
      byOpen.remove(s.open());
    }
  }

  /** The lock states made through an open. */
  synchronized List<LockState> ofOpen(OpenState open) {
    return List.copyOf(byOpen.getOrDefault(open, List.of()));
  }

  /** Removes and returns every lock state of a client (its lease ended or it was destroyed). */
  synchronized List<LockState> removeClient(ClientRecord client) {
    List<LockState> out = new ArrayList<>();
    byKey.values().removeIf(l -> {
      if (l.client() == client) {
        out.add(l);
        return true;
      }
      return false;
    });
    out.forEach(this::unlinkOpen);
    return out;
  }

  /** Lock states held (metrics). */
  synchronized int size() {
    return byKey.size();
  }
}
