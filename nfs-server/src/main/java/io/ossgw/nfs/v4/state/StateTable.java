package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.stateid4;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The stateids this server handed out (RFC 8881 §8.2): open and lock state, one entry per {@code other}, each with
 * its current seqid. Open state ({@code v4} OPEN, CLOSE) and lock state (LOCK, LOCKU) are subclasses of {@link
 * State} kept in this one table, so TEST_STATEID and FREE_STATEID see all of them and a client's lease expiry frees
 * them together ({@link #removeClient}).
 *
 * <p>{@code other} is the client id's low 32 bits and a per-table counter; seqids start at 1, grow by one per change
 * of the state and wrap from 0xffffffff to 1 (§8.2.2). Thread-safe (one monitor).
 */
public final class StateTable {
  /**
   * One piece of state a stateid names. Subclasses carry what it is (an open of a file by an open owner, the locks
   * of a lock owner on a file); the table owns the stateid.
   */
  public abstract static class State {
    private final ClientRecord client;
    private stateid4 id;

    protected State(ClientRecord client) {
      this.client = client;
    }

    public final ClientRecord client() {
      return client;
    }

    /** The current stateid (seqid as of the last change). */
    public final synchronized stateid4 stateid() {
      return id;
    }
  }

  private final Map<Long, State> byOther = new HashMap<>();
  private long counter;
  private volatile Consumer<ClientRecord> firstState = c -> {};

  /**
   * Registers what runs when a client record gets its first state ({@link ClientStore#recordState}: the client may
   * reclaim after a restart). Runs under this table's monitor, before {@link #add} returns.
   */
  public void onFirstState(Consumer<ClientRecord> listener) {
    this.firstState = listener;
  }

  /**
   * Enters new state and gives it its first stateid (seqid 1).
   *
   * @return the stateid
   */
  public synchronized stateid4 add(State s) {
    long lo = ++counter;
    stateid4 id = new stateid4(1, (int) s.client.clientid(), lo);
    synchronized (s) {
      s.id = id;
    }
    byOther.put(lo, s);
    if (!s.client.hadState) {
      s.client.hadState = true;
      firstState.accept(s.client);
    }
    return id;
  }

  /**
   * The state a stateid names, checked as RFC 8881 §8.2.2-8.2.4 and §18.x.3 say: a seqid of 0 means "whatever is
   * current".
   *
   * @param kind the class expected (an open stateid where a lock stateid is given is NFS4ERR_BAD_STATEID)
   * @throws Nfs4Exception NFS4ERR_BAD_STATEID (unknown, of another kind, special, or a seqid from the future),
   *     NFS4ERR_OLD_STATEID (an older seqid)
   */
  public synchronized <T extends State> T get(stateid4 id, Class<T> kind) {
    State s = byOther.get(id.otherLo());
    if (s == null || (int) s.client.clientid() != id.otherHi() || !kind.isInstance(s)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BAD_STATEID, "no such state " + id);
    }
    int cur = s.stateid().seqid();
    if (id.seqid() != 0 && id.seqid() != cur) {
      // serial-number order: seqids wrap, so "older" is "a few increments behind" (§8.2.2)
      boolean older = cur - id.seqid() > 0;
      throw new Nfs4Exception(older ? Nfs4.NFS4ERR_OLD_STATEID : Nfs4.NFS4ERR_BAD_STATEID,
          "stateid " + id + ", current seqid " + Integer.toUnsignedString(cur));
    }
    return kind.cast(s);
  }

  /** The state with this {@code other}, whatever its seqid and kind, or null (TEST_STATEID, FREE_STATEID). */
  public synchronized State find(stateid4 id) {
    State s = byOther.get(id.otherLo());
    return s == null || (int) s.client.clientid() != id.otherHi() ? null : s;
  }

  /**
   * Records a change of the state (OPEN upgrade, OPEN_DOWNGRADE, LOCK, LOCKU): its seqid grows by one.
   *
   * @return the new stateid
   */
  public synchronized stateid4 bump(State s) {
    synchronized (s) {
      int next = s.id.seqid() + 1;
      s.id = s.id.withSeqid(next == 0 ? 1 : next);
      return s.id;
    }
  }

  /** Forgets the state (CLOSE, FREE_STATEID, the last lock of an owner released); a removed state is not found. */
  public synchronized void remove(State s) {
    byOther.remove(s.id.otherLo(), s);
  }

  /**
   * Forgets every state of a client (lease expired, DESTROY_CLIENTID).
   *
   * @return what was removed, for the caller to release (locks, open handles)
   */
  public synchronized List<State> removeClient(ClientRecord client) {
    List<State> out = new ArrayList<>();
    byOther.values().removeIf(s -> {
      if (s.client == client) {
        out.add(s);
        return true;
      }
      return false;
    });
    return out;
  }

  /** States of a client (e.g. for DESTROY_CLIENTID's NFS4ERR_CLIENTID_BUSY). */
  public synchronized List<State> ofClient(ClientRecord client) {
    return byOther.values().stream().filter(s -> s.client == client).toList();
  }

  /** How many states of a kind are held (metrics: open and lock state counts). */
  public synchronized int count(Class<? extends State> kind) {
    return (int) byOther.values().stream().filter(kind::isInstance).count();
  }
}
