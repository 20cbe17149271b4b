package io.ossgw.nfs.v4.state;

import io.ossgw.nfs.v4.xdr.CREATE_SESSION4args;
import io.ossgw.nfs.v4.xdr.CREATE_SESSION4resok;
import io.ossgw.nfs.v4.xdr.Nfs4;
import io.ossgw.nfs.v4.xdr.channel_attrs4;
import io.ossgw.nfs.v4.xdr.client_owner4;
import io.ossgw.nfs.v4.xdr.sessionid4;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The NFSv4.1 client and session state of one server: client records by id and by owner (confirmed and unconfirmed
 * apart, RFC 8881 §18.35.4), sessions by id, and leases on an injected {@link Clock}. A client whose lease has run
 * out (no SEQUENCE or EXCHANGE_ID for {@link V4Limits#lease()}) is dropped with its sessions by {@link #reap} (run
 * from every COMPOUND at most once a second, or by a timer); its later requests get NFS4ERR_BADSESSION or
 * NFS4ERR_STALE_CLIENTID and the client recovers with a new EXCHANGE_ID.
 *
 * <p>Client records and sessions are charged to the client address that made the record ({@link StateBudget}; a
 * session reserves its whole reply cache). An EXCHANGE_ID or CREATE_SESSION that does not fit the address's share
 * first drops that address's oldest unconfirmed records (a flood of EXCHANGE_IDs only ever replaces its own), then,
 * when the server's total is short, anyone's oldest unconfirmed record; CREATE_SESSION then grants fewer slots; when
 * nothing can go, NFS4ERR_DELAY. Confirmed records are never dropped for room: they may hold opens and locks.
 *
 * <p>Client ids carry the server's boot time in their high 32 bits, so ids from before a restart are never reused.
 * Thread-safe: one monitor; every method is a few map operations (making room drops records one at a time).
 */
public final class ClientTable {
  /** What EXCHANGE_ID gets: the record and whether it is confirmed (EXCHGID4_FLAG_CONFIRMED_R). */
  public record Exchange(long clientid, int sequenceid, boolean confirmed) {}

  private static final long REAP_INTERVAL_MILLIS = 1000;
  /** The address of a caller that has none (tests of the session machinery). */
  private static final InetAddress NO_ADDRESS = InetAddress.getLoopbackAddress();

  private final Clock clock;
  private final V4Limits limits;
  private final StateBudget budget;
  private final long bootEpoch;
  private final Map<Long, ClientRecord> byId = new HashMap<>();
  private final Map<ByteBuffer, ClientRecord> confirmed = new HashMap<>();
  /** Unconfirmed records by owner, oldest first. */
  private final Map<ByteBuffer, ClientRecord> unconfirmed = new LinkedHashMap<>();
  /** Unconfirmed records by the address that made them, oldest first. */
  private final Map<InetAddress, LinkedHashSet<ClientRecord>> unconfirmedByAddress = new HashMap<>();
  private long evicted;
  private final Map<sessionid4, Session> sessions = new HashMap<>();
  private final List<Consumer<ClientRecord>> removeListeners = new ArrayList<>();
  /** Runs before CREATE_SESSION confirms a record ({@link ClientStore#confirmed}); may refuse it by throwing. */
  private Consumer<ClientRecord> confirmListener = c -> {};
  private int clientCounter;
  private int sessionCounter;
  private long nextReap;

  /**
   * @param clock the lease clock (tests pass a settable one)
   * @param limits lease and size limits
   */
  public ClientTable(Clock clock, V4Limits limits) {
    this.clock = clock;
    this.limits = limits;
    this.budget = new StateBudget(limits);
    this.bootEpoch = clock.millis() / 1000;
  }

  public V4Limits limits() {
    return limits;
  }

  /** EXCHANGE_ID as {@link #exchangeId(client_owner4, int, String, InetAddress)} from no address (tests). */
  public Exchange exchangeId(client_owner4 owner, int flags, String principal) {
    return exchangeId(owner, flags, principal, null);
  }

  /**
   * EXCHANGE_ID (RFC 8881 §18.35.4-5) for a client owner, as {@code principal}.
   *
   * @param flags eia_flags
   * @param address the caller's address, whose share a new record is charged to (null: none, in tests)
   * @throws Nfs4Exception NFS4ERR_INVAL (CONFIRMED_R set by the client), NFS4ERR_NOENT / NFS4ERR_PERM /
   *     NFS4ERR_NOT_SAME (an update of a record that is missing / another principal's / another boot's),
   *     NFS4ERR_CLID_INUSE (the owner is held by another principal with live sessions), NFS4ERR_DELAY (the address's
   *     share or the table full of confirmed records)
   */
  public synchronized Exchange exchangeId(client_owner4 owner, int flags, String principal, InetAddress address) {
    reapIfDue();
    if ((flags & Nfs4.EXCHGID4_FLAG_CONFIRMED_R) != 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "client set EXCHGID4_FLAG_CONFIRMED_R");
    }
    ByteBuffer key = ByteBuffer.wrap(owner.ownerid().clone());
    ClientRecord conf = confirmed.get(key);
    if ((flags & Nfs4.EXCHGID4_FLAG_UPD_CONFIRMED_REC_A) != 0) {
      if (conf == null) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOENT, "no confirmed record to update");
      }
      if (!conf.principal.equals(principal)) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_PERM, "update by another principal");
      }
      if (!conf.sameVerifier(owner.verifier())) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_NOT_SAME, "update with another verifier");
      }
      renew(conf);
      return new Exchange(conf.clientid, conf.createSessionSeq + 1, true);
    }
    if (conf != null) {
      if (!conf.principal.equals(principal)) {
        if (!conf.sessions.isEmpty()) { // client collision with live state (§18.35.5 case 3)
          throw new Nfs4Exception(Nfs4.NFS4ERR_CLID_INUSE, "owner held by " + conf.principal);
        }
        remove(conf);
      } else if (conf.sameVerifier(owner.verifier())) { // the same client again (case 2)
        ClientRecord stale = unconfirmed.remove(key);
        if (stale != null) {
          byId.remove(stale.clientid);
        }
        renew(conf);
        return new Exchange(conf.clientid, conf.createSessionSeq + 1, true);
      }
      // else the client rebooted (case 5): a new unconfirmed record; the old one goes when CREATE_SESSION confirms it
    }
    ClientRecord old = unconfirmed.get(key); // an unconfirmed record is simply replaced (case 4)
    if (old != null) {
      remove(old);
    }
    InetAddress from = address == null ? NO_ADDRESS : address;
    long cost = StateBudget.recordBytes(owner.ownerid().length, principal.length());
    if (!makeRoom(from, cost, 1, null)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "no room for another client record of " + from.getHostAddress()
          + " (" + budget.records(from) + " records, " + budget.bytes(from) + " bytes held)");
    }
    long id = (bootEpoch << 32) | (++clientCounter & 0xffffffffL);
    ClientRecord rec = new ClientRecord(id, owner.ownerid(), owner.verifier(), principal, from, 1, leaseEnd());
    budget.charge(from, rec.charged, 1);
    byId.put(id, rec);
    unconfirmed.put(key, rec);
    unconfirmedByAddress.computeIfAbsent(from, a -> new LinkedHashSet<>()).add(rec);
    return new Exchange(id, 1, false);
  }

  /**
   * Makes room for {@code bytes} and {@code records} more charged to {@code address}: drops the address's oldest
   * unconfirmed records until its share has room, then anyone's oldest until the server's total has room, never
   * {@code keep}.
   *
   * @return true if there is room now
   */
  private boolean makeRoom(InetAddress address, long bytes, int records, ClientRecord keep) {
    while (!budget.fitsAddress(address, bytes, records)) {
      if (!evictOldest(unconfirmedByAddress.get(address), keep)) {
        return false;
      }
    }
    while (!budget.fitsTotal(bytes, records)) {
      if (!evictOldest(unconfirmed.values(), keep)) {
        return false;
      }
    }
    return true;
  }

  private boolean evictOldest(Collection<ClientRecord> oldestFirst, ClientRecord keep) {
    if (oldestFirst == null) {
      return false;
    }
    for (ClientRecord r : oldestFirst) {
      if (r != keep) {
        remove(r);
        evicted++;
        return true;
      }
    }
    return false;
  }

  /**
   * CREATE_SESSION (RFC 8881 §18.36.4): confirms an unconfirmed client (dropping the record of its previous boot) and
   * opens a session with the fore channel limits granted (the smaller of asked and {@link V4Limits}).
   *
   * <p>The session's reply cache is reserved whole from the share of the address that made the record: the slots
   * asked for at the cached size granted, making room as {@link #exchangeId} does; if they still do not fit, fewer
   * slots are granted (RFC 8881 §18.36.3 lets the server negotiate ca_maxrequests down).
   *
   * @throws Nfs4Exception NFS4ERR_STALE_CLIENTID (unknown or expired client), NFS4ERR_CLID_INUSE (another
   *     principal), NFS4ERR_SEQ_MISORDERED (csa_sequence neither the last nor the next), NFS4ERR_INVAL (no slots or
   *     operations asked), NFS4ERR_DELAY (too many sessions, or not one slot fits the address's share)
   */
  public synchronized CREATE_SESSION4resok createSession(CREATE_SESSION4args a, String principal) {
    reapIfDue();
    ClientRecord rec = byId.get(a.clientid());
    if (rec == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_STALE_CLIENTID, "unknown client " + Long.toHexString(a.clientid()));
    }
    if (!rec.principal.equals(principal)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_CLID_INUSE, "CREATE_SESSION by another principal");
    }
    if (rec.confirmed && a.sequence() == rec.createSessionSeq && rec.createSessionReply != null) {
      return rec.createSessionReply; // a retransmission: the same session again
    }
    if (a.sequence() != rec.createSessionSeq + 1) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_SEQ_MISORDERED,
          "csa_sequence " + Integer.toUnsignedString(a.sequence()) + ", expected "
              + Integer.toUnsignedString(rec.createSessionSeq + 1));
    }
    channel_attrs4 ask = a.foreChanAttrs();
    if (ask.maxrequests() == 0 || ask.maxoperations() == 0) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_INVAL, "fore channel without slots or operations");
    }
    if (rec.sessions.size() >= limits.maxSessionsPerClient()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "too many sessions");
    }
    int cached = min(ask.maxresponsesizeCached(), limits.maxResponseSizeCached());
    int slots = min(ask.maxrequests(), limits.maxSlots());
    if (!makeRoom(rec.address, StateBudget.sessionBytes(slots, cached), 0, rec)) {
      long room = budget.room(rec.address) - StateBudget.SESSION_OVERHEAD;
      slots = (int) Math.max(0, Math.min(slots, room / (StateBudget.SLOT_OVERHEAD + cached)));
      if (slots == 0) {
        throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "no room for a session of " + rec.address.getHostAddress()
            + " (" + budget.bytes(rec.address) + " bytes held)");
      }
    }
    if (!rec.confirmed) {
      confirmListener.accept(rec); // before any change: a refusal (NFS4ERR_DELAY) leaves the record unconfirmed
      ByteBuffer key = ByteBuffer.wrap(rec.owner);
      unconfirmed.remove(key);
      forgetUnconfirmed(rec);
      ClientRecord previous = confirmed.put(key, rec);
      if (previous != null) {
        remove(previous); // the client rebooted: its earlier state is gone (§18.35.5 case 5)
      }
      rec.confirmed = true;
    }
    channel_attrs4 fore = new channel_attrs4(0, min(ask.maxrequestsize(), limits.maxRequestSize()),
        min(ask.maxresponsesize(), limits.maxResponseSize()), cached,
        min(ask.maxoperations(), limits.maxOperations()), slots, null);
    channel_attrs4 b = a.backChanAttrs();
    channel_attrs4 back = new channel_attrs4(0, b.maxrequestsize(), b.maxresponsesize(), b.maxresponsesizeCached(),
        b.maxoperations(), min(b.maxrequests(), 1), null);
    sessionid4 sid = new sessionid4(rec.clientid, (bootEpoch << 32) | (++sessionCounter & 0xffffffffL));
    Session s = new Session(sid, rec, fore);
    budget.charge(rec.address, s.charged, 0);
    rec.sessions.put(sid, s);
    sessions.put(sid, s);
    // No PERSIST (replies are not kept across restarts) and no CONN_BACK_CHAN (no callbacks are made).
    CREATE_SESSION4resok reply = new CREATE_SESSION4resok(sid, a.sequence(), 0, fore, back);
    rec.createSessionSeq = a.sequence();
    rec.createSessionReply = reply;
    renew(rec);
    return reply;
  }

  /**
   * The session with this id.
   *
   * @throws Nfs4Exception NFS4ERR_BADSESSION if unknown, destroyed or expired
   */
  public synchronized Session session(sessionid4 id) {
    reapIfDue();
    Session s = sessions.get(id);
    if (s == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BADSESSION, "session " + id);
    }
    return s;
  }

  /** Extends the client's lease by {@link V4Limits#lease()} from now (SEQUENCE, RFC 8881 §8.3). */
  public synchronized void renew(ClientRecord rec) {
    rec.leaseEnd = leaseEnd();
  }

  /**
   * DESTROY_SESSION (RFC 8881 §18.37).
   *
   * @throws Nfs4Exception NFS4ERR_BADSESSION if unknown
   */
  public synchronized void destroySession(sessionid4 id) {
    Session s = sessions.remove(id);
    if (s == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_BADSESSION, "session " + id);
    }
    s.client().sessions.remove(id);
    budget.release(s.client().address, s.charged, 0);
  }

  /**
   * DESTROY_CLIENTID (RFC 8881 §18.50).
   *
   * @throws Nfs4Exception NFS4ERR_STALE_CLIENTID if unknown, NFS4ERR_CLIENTID_BUSY while it has sessions
   */
  public synchronized void destroyClientId(long clientid) {
    destroyClientId(clientid, rec -> false);
  }

  /**
   * DESTROY_CLIENTID (RFC 8881 §18.50.3): a client with sessions or state is busy.
   *
   * @param hasState whether the record holds open or lock state (asked under this table's monitor)
   * @throws Nfs4Exception NFS4ERR_STALE_CLIENTID if unknown, NFS4ERR_CLIENTID_BUSY while it has sessions or state
   */
  public synchronized void destroyClientId(long clientid, java.util.function.Predicate<ClientRecord> hasState) {
    ClientRecord rec = byId.get(clientid);
    if (rec == null) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_STALE_CLIENTID, "unknown client " + Long.toHexString(clientid));
    }
    if (!rec.sessions.isEmpty()) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_CLIENTID_BUSY, rec + " has " + rec.sessions.size() + " sessions");
    }
    if (hasState.test(rec)) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_CLIENTID_BUSY, rec + " holds open or lock state");
    }
    remove(rec);
  }

  /**
   * RECLAIM_COMPLETE for the whole client (RFC 8881 §18.51).
   *
   * @throws Nfs4Exception NFS4ERR_COMPLETE_ALREADY on the second one
   */
  public synchronized void reclaimComplete(ClientRecord rec) {
    if (rec.reclaimComplete) {
      throw new Nfs4Exception(Nfs4.NFS4ERR_COMPLETE_ALREADY, rec + " already sent RECLAIM_COMPLETE");
    }
    rec.reclaimComplete = true;
  }

  /**
   * Drops every client whose lease has ended, with its sessions, unless one of its requests is running.
   *
   * @return how many clients were dropped
   */
  public synchronized int reap() {
    long now = clock.millis();
    nextReap = now + REAP_INTERVAL_MILLIS;
    int n = 0;
    for (ClientRecord rec : new ArrayList<>(byId.values())) {
      if (rec.leaseEnd <= now && rec.sessions.values().stream().noneMatch(s -> s.slots().busy())) {
        remove(rec);
        n++;
      }
    }
    return n;
  }

  /** Client records held, confirmed or not. */
  public synchronized int clients() {
    return byId.size();
  }

  /** Sessions held. */
  public synchronized int sessions() {
    return sessions.size();
  }

  /** Heap bytes charged for client records and sessions ({@link StateBudget}). */
  public synchronized long stateBytes() {
    return budget.bytes();
  }

  /** Heap bytes charged to the records made from one client address and their sessions. */
  public synchronized long stateBytes(InetAddress address) {
    return budget.bytes(address);
  }

  /** Client records made from one client address. */
  public synchronized int clients(InetAddress address) {
    return budget.records(address);
  }

  /** Unconfirmed client records dropped to make room since the start. */
  public synchronized long evicted() {
    return evicted;
  }

  private void reapIfDue() {
    if (clock.millis() >= nextReap) {
      reap();
    }
  }

  /**
   * Registers what must run before CREATE_SESSION confirms a client record (the cluster's record of who may reclaim,
   * {@link ClientStore#confirmed}); it may refuse the confirmation by throwing {@link Nfs4Exception} (the
   * CREATE_SESSION fails with its status and changes nothing). Called under this table's monitor; one listener.
   */
  public synchronized void onConfirm(Consumer<ClientRecord> listener) {
    confirmListener = listener;
  }

  /**
   * Registers what must run when a client record is dropped (lease expiry, DESTROY_CLIENTID, replacement by a new
   * boot of the same owner): open and lock state freed, locks released. Called under this table's monitor, so a
   * listener must not call back into the table.
   */
  public synchronized void onRemove(Consumer<ClientRecord> listener) {
    removeListeners.add(listener);
  }

  private void remove(ClientRecord rec) {
    if (!byId.containsKey(rec.clientid)) {
      return; // already gone
    }
    for (Consumer<ClientRecord> l : removeListeners) {
      l.accept(rec);
    }
    byId.remove(rec.clientid);
    ByteBuffer key = ByteBuffer.wrap(rec.owner);
    confirmed.remove(key, rec);
    unconfirmed.remove(key, rec);
    forgetUnconfirmed(rec);
    long bytes = rec.charged;
    for (Session s : rec.sessions.values()) {
      sessions.remove(s.id());
      bytes += s.charged;
    }
    rec.sessions.clear();
    budget.release(rec.address, bytes, 1);
  }

  private void forgetUnconfirmed(ClientRecord rec) {
    LinkedHashSet<ClientRecord> set = unconfirmedByAddress.get(rec.address);
    if (set != null && set.remove(rec) && set.isEmpty()) {
      unconfirmedByAddress.remove(rec.address);
    }
  }

  private long leaseEnd() {
    return clock.millis() + limits.lease().toMillis();
  }

  /** The smaller of two counts read as unsigned 32-bit values. */
  private static int min(int asked, int ours) {
    return Integer.compareUnsigned(asked, ours) < 0 ? asked : ours;
  }
}
