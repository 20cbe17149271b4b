package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.fs.OpenFiles;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every open of the NFSv4.1 clients, by file: share reservations (RFC 8881 §9.7: an OPEN whose access meets another
 * open owner's deny, or whose deny meets another open owner's access, is NFS4ERR_SHARE_DENIED), one {@link OpenState}
 * per (client, open owner, file) (§9.1: a second OPEN by the same owner upgrades that state and bumps its seqid),
 * OPEN_DOWNGRADE, CLOSE and the closing of a dropped client's files. The stateids live in the {@link StateTable};
 * this index is kept apart so a client's opens are found (and their handles released) whatever else removes its
 * states. Opens are bounded per client and in all ({@link #DEFAULT_PER_CLIENT}, {@link #DEFAULT_TOTAL}): each keeps a
 * handle of the engine open, so a client opening without closing must not exhaust the server; past a bound a new
 * open is NFS4ERR_DELAY (the client retries, as Linux knfsd answers a failed allocation) while upgrades still work.
 * Thread-safe (one monitor; no I/O under it).
 */
public final class Opens {
  private static final System.Logger LOG = System.getLogger(Opens.class.getName());

  private record FileKey(int exportId, long fileid) {}

  /** Opens one client may hold. */
  public static final int DEFAULT_PER_CLIENT = 10_000;
  /** Opens all clients may hold. */
  public static final int DEFAULT_TOTAL = 100_000;

  private final StateTable states;
  private final int perClient;
  private final int total;
  private final Map<FileKey, List<OpenState>> byFile = new HashMap<>();
  private final Map<ClientRecord, Integer> perClientCount = new HashMap<>();
  private int count;

  /** @param states where the stateids are kept */
  public Opens(StateTable states) {
    this(states, DEFAULT_PER_CLIENT, DEFAULT_TOTAL);
  }

  /**
   * @param states where the stateids are kept
   * @param perClient opens one client may hold
   * @param total opens all clients may hold
   */
  public Opens(StateTable states, int perClient, int total) {
    this.states = states;
    this.perClient = perClient;
    this.total = total;
  }

  /** What an OPEN got: the state and whether it is new (a new open owner on the file). */
  public record Opened(OpenState state, stateid4 stateid, boolean created) {}

  /**
   * OPEN's share reservation (RFC 8881 §18.16.3, §9.7): the open owner's state on the file with {@code access} and
   * {@code deny} added, new (and its handle kept open by {@code pin}) or upgraded (seqid bumped).
   *
   * @param pin opens the file's shared handle for a new state; run without this monitor held
   * @throws Nfs4Exception NFS4ERR_SHARE_DENIED on a conflict with another open owner's open, NFS4ERR_DELAY for a new
   *     open past the bounds; whatever {@code pin} throws
   */
  public Opened open(ClientRecord client, byte[] owner, Export export, long fileid, int access, int deny,
      Supplier<OpenFiles.Pin> pin) {
    FileKey key = new FileKey(export.id(), fileid);
    OpenState mine;
    synchronized (this) {
      mine = find(key, client, owner);
      checkShare(key, mine, access, deny);
      if (mine != null) {
        mine.access |= access;
        mine.deny |= deny;
        return new Opened(mine, states.bump(mine), false);
      }
      checkBounds(client);
    }
    OpenFiles.Pin p = pin.get();
    synchronized (this) {
      mine = find(key, client, owner);
      try {
        checkShare(key, mine, access, deny); // again: another open may have come while the file was opened
        if (mine == null) {
          checkBounds(client);
        }
      } catch (Nfs4Exception e) {
        p.unpin();
        throw e;
      }
      if (mine != null) { // the same owner raced itself: keep one state
        p.unpin();
        mine.access |= access;
        mine.deny |= deny;
        return new Opened(mine, states.bump(mine), false);
      }
      OpenState s = new OpenState(client, owner, export, fileid);
      s.access = access;
      s.deny = deny;
      s.pin = p;
      stateid4 id = states.add(s);
      byFile.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
      perClientCount.merge(client, 1, Integer::sum);
      count++;
      return new Opened(s, id, true);
    }
  }

  /**
   * OPEN_DOWNGRADE (RFC 8881 §18.18.3): the open keeps only {@code access} and {@code deny}, which must be subsets of
   * what it holds.
   *
   * @return the new stateid
   * @throws Nfs4Exception NFS4ERR_INVAL (not a subset, or no access left), NFS4ERR_BAD_STATEID (closed meanwhile)
   */
  public synchronized stateid4 downgrade(OpenState s, int access, int deny) {
    if (s.closed) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, "closed");
    }
    if (access == 0 || (access & ~s.access) != 0 || (deny & ~s.deny) != 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL,
          "downgrade to access " + access + " deny " + deny + " from " + s.access + "/" + s.deny);
    }
    s.access = access;
    s.deny = deny;
    return states.bump(s);
  }

  /**
   * CLOSE: forgets the open (its stateid no longer resolves).
   *
   * @return the handle it kept open, for the caller to upload and unpin; null if already closed
   */
  public OpenFiles.Pin close(OpenState s) {
    synchronized (this) {
      if (s.closed) {
        return null;
      }
      forget(s);
    }
    states.remove(s);
    return s.pin;
  }

  /**
   * Closes every open of a dropped client (lease expired, DESTROY_CLIENTID, a new boot of the same owner): the states
   * go at once; the files' unsaved data is uploaded and the handles unpinned on a virtual thread, since this runs
   * under the client table's monitor ({@link ClientTable#onRemove}).
   */
  public void closeClient(ClientRecord client) {
    List<OpenState> gone = new ArrayList<>();
    synchronized (this) {
      for (List<OpenState> l : byFile.values()) {
        for (OpenState s : l) {
          if (s.client() == client) {
            gone.add(s);
          }
        }
      }
      gone.forEach(this::forget);
    }
    if (gone.isEmpty()) {
      return;
    }
    gone.forEach(states::remove);
    Thread.ofVirtual().name("nfs4-expired-opens").start(() -> {
      for (OpenState s : gone) {
        if (s.pin == null) {
          continue;
        }
        try {
          s.pin.commit();
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "upload of " + s + " of an expired client failed (the idle release "
              + "retries): " + e.getMessage());
        }
        s.pin.unpin();
      }
    });
  }

  /** Opens held now (metrics). */
  public synchronized int size() {
    return count;
  }

  /** The opens of a file (a snapshot), e.g. for a share check by another protocol. */
  public synchronized List<OpenState> of(Export export, long fileid) {
    return List.copyOf(byFile.getOrDefault(new FileKey(export.id(), fileid), List.of()));
  }

  private void checkBounds(ClientRecord client) {
    if (count >= total || perClientCount.getOrDefault(client, 0) >= perClient) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "too many opens (" + count + " in all, "
          + perClientCount.getOrDefault(client, 0) + " of " + client + ")");
    }
  }

  private void forget(OpenState s) {
    s.closed = true;
    count--;
    perClientCount.computeIfPresent(s.client(), (c, n) -> n == 1 ? null : n - 1);
    FileKey key = new FileKey(s.export().id(), s.fileid());
    List<OpenState> l = byFile.get(key);
    if (l != null) {
      l.remove(s);
      if (l.isEmpty()) {
        byFile.remove(key);
      }
    }
  }

  private OpenState find(FileKey key, ClientRecord client, byte[] owner) {
    for (OpenState s : byFile.getOrDefault(key, List.of())) {
      if (s.client() == client && s.ownedBy(owner)) {
        return s;
      }
    }
    return null;
  }

  private void checkShare(FileKey key, OpenState mine, int access, int deny) {
    for (OpenState o : byFile.getOrDefault(key, List.of())) {
      if (o != mine && ((access & o.deny) != 0 || (deny & o.access) != 0)) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_SHARE_DENIED, "conflicts with " + o);
      }
    }
  }
}
