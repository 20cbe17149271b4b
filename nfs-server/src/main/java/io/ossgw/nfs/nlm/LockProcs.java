package io.ossgw.nfs.nlm;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.lock.LockTable.FileKey;
import io.ossgw.core.lock.LockTable.Mode;
import io.ossgw.core.lock.LockTable.Owner;
import io.ossgw.core.lock.LockTable;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsException;
import io.ossgw.nfs.auth.Identities;
import io.ossgw.nfs.auth.Permissions;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.handle.FileHandles;
import io.ossgw.nfs.handle.HandleIssuer;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_cancargs;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_holder;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_lock;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_lockargs;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_notify;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_res;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_testargs;
import io.ossgw.nfs.nlm.NlmXdr.nlm4_testres;
import io.ossgw.nfs.xdr.nfs_fh3;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.dcache.oncrpc4j.rpc.RpcCall;

/**
 * NLM v4 TEST, LOCK, CANCEL, UNLOCK, NM_LOCK and FREE_ALL over the gateway's {@link LockTable}.
 *
 * <p>Identity: a lock's file is the NFSv3 handle's export id and fileid (so locks follow renames and are shared with
 * any other front end keyed the same way); its owner is {@code caller_name@address} (the client) plus the svid and
 * owner handle. The handle must be valid for the calling client exactly as for NFS: unknown or removed files give
 * NLM4_STALE_FH, a client outside the export's networks (or on an unprivileged port for a {@code secure} export)
 * NLM4_FAILED, which the Linux client reports as ENOLCK. TEST and LOCK also need the caller (AUTH_SYS, squashed as
 * for NFS) to have read or write permission on the file or to own it ({@link Permissions#mayLock}; NLM4_FAILED);
 * UNLOCK and CANCEL need nothing.
 *
 * <p>Blocking requests. The server cannot send the GRANTED callback (the client's lockd is behind NAT or a firewall
 * in the common deployments, and the callback needs the client's portmapper). The Linux client (fs/lockd/clntproc.c,
 * nlmclnt_lock) answers NLM4_BLOCKED by waiting for that callback up to NLMCLNT_POLL_TIMEOUT (30 s) before asking
 * again, and answers NLM4_DENIED_GRACE_PERIOD by waiting up to NLMCLNT_GRACE_WAIT (5 s), or less: the wait ends as
 * soon as a synchronous call (LOCK, TEST) of that client returns, since nlmclnt_call wakes h_gracewait. So a
 * blocking LOCK that conflicts is held here up to {@code lockWait} (kept under the client's 10 s RPC timeout) and
 * granted the moment the holder unlocks; if the conflict outlasts it, the reply is NLM4_DENIED_GRACE_PERIOD and the
 * client asks again within 5 s.
 * A waiter interrupted by a signal sends CANCEL, which ends the held request; if the grant had already been sent,
 * CANCEL answers NLM4_DENIED and the client then sends UNLOCK, so no lock is left behind.
 *
 * <p>Grace. While clients reclaim their locks after a restart or a takeover (the grace period: NFSv4.1 clients known
 * from before, or NLM hosts of the {@link MonitorList} sent SM_NOTIFY), TEST and LOCK without the reclaim flag answer
 * NLM4_DENIED_GRACE_PERIOD (as Linux lockd does in its grace period): the lock table is shared, and a lock taken now
 * could be one a client is about to reclaim. Reclaims (LOCK with reclaim set) are served as they come, each logged
 * (INFO, "NLM reclaim from CLIENT of PATH [START, END): STATUS").
 *
 * <p>Monitoring. A monitored LOCK (not NM_LOCK) records its host in the {@link MonitorList} before it is served (as
 * Linux lockd asks its statd to SM_MON a host first); a host whose locks are all gone is removed a while later, and at
 * once when it rebooted (SM_NOTIFY, FREE_ALL).
 */
final class LockProcs {
  private static final System.Logger LOG = System.getLogger(LockProcs.class.getName());
  /** Most remembered client NSM states (one per client host): beyond it the map is cleared, losing only the hint. */
  private static final int MAX_STATES = 100_000;

  private final Exports exports;
  private final InodeTable table;
  private final FileHandles handles;
  private final HandleIssuer issuer;
  private final LockTable locks;
  private final Duration lockWait;
  private final Semaphore holds;
  private final Map<String, Integer> states = new ConcurrentHashMap<>();
  /** The NFSv4.1 grace period (locks are shared: while v4.1 clients reclaim, NLM takes no new lock, as Linux lockd). */
  private final java.util.function.BooleanSupplier inGrace;
  private final MonitorList hosts;

  /**
   * @param lockWait how long a blocking LOCK is held waiting for the conflicting lock to go
   * @param maxHeld most blocking LOCK calls held at once (each holds an in-flight slot of the RPC server); beyond
   *     it they are answered at once
   */
  LockProcs(Exports exports, InodeTable table, LockTable locks, Duration lockWait, int maxHeld,
      java.util.function.BooleanSupplier inGrace, MonitorList hosts) {
    this.inGrace = inGrace;
    this.hosts = hosts;
    this.exports = exports;
    this.table = table;
    this.handles = new FileHandles(table.secret());
    this.issuer = new HandleIssuer(table, handles);
    this.locks = locks;
    this.lockWait = lockWait;
    this.holds = new Semaphore(maxHeld);
  }

  /** A refusal with an nlm4_stats value. */
  static final class NlmError extends RuntimeException {
    final int stat;

    NlmError(int stat, String message) {
      super(message, null, false, false);
      this.stat = stat;
    }
  }

  nlm4_testres test(RpcCall call, nlm4_testargs a) {
    Target t = target(call, a.alock());
    checkMayLock(call, t);
    if (inGrace.getAsBoolean()) {
      return new nlm4_testres(a.cookie(), Nlm4.NLM4_DENIED_GRACE_PERIOD, null);
    }
    LockTable.Lock h = locks.test(t.file, t.owner, mode(a.exclusive()), t.start, t.end);
    if (h == null) {
      return new nlm4_testres(a.cookie(), Nlm4.NLM4_GRANTED, null);
    }
    return new nlm4_testres(a.cookie(), Nlm4.NLM4_DENIED, holder(h));
  }

  nlm4_res lock(RpcCall call, nlm4_lockargs a, boolean monitored) {
    Target t = target(call, a.alock());
    checkMayLock(call, t);
    if (!a.reclaim() && inGrace.getAsBoolean()) {
      return new nlm4_res(a.cookie(), Nlm4.NLM4_DENIED_GRACE_PERIOD);
    }
    if (monitored) {
      noteState(t.owner.client(), a.state());
      hosts.monitor(host(call, a.alock().caller_name())); // before the reply: a restart right after must notify it
    }
    boolean hold = a.block() && monitored && holds.tryAcquire();
    try {
      LockTable.Result r = locks.lock(t.file, t.owner, mode(a.exclusive()), t.start, t.end,
          hold ? lockWait : Duration.ZERO);
      if (a.reclaim()) {
        // one line per reclaimed lock, only after a restart or takeover: how an operator (and the VM lane's failover
        // test) sees that the clients told by SM_NOTIFY got their locks back, and how long after the takeover
        LOG.log(System.Logger.Level.INFO, "NLM reclaim from " + t.owner.client() + " of " + t.path + " ["
            + t.start + ", " + (t.end == LockTable.TO_EOF ? "EOF" : t.end) + "): " + r.status());
      }
      return new nlm4_res(a.cookie(), switch (r.status()) {
        case GRANTED -> Nlm4.NLM4_GRANTED;
        // see the class comment: "ask again soon", the only prompt retry the Linux client offers
        case CONFLICT -> a.block() ? Nlm4.NLM4_DENIED_GRACE_PERIOD : Nlm4.NLM4_DENIED;
        case NO_LOCKS -> Nlm4.NLM4_DENIED_NOLOCKS;
        case CANCELLED -> Nlm4.NLM4_DENIED;
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the server is stopping
      return new nlm4_res(a.cookie(), Nlm4.NLM4_DENIED_GRACE_PERIOD);
    } finally {
      if (hold) {
        holds.release();
      }
      if (monitored) {
        hosts.held(t.owner.client(), locks.held(t.owner.client()));
      }
    }
  }

  nlm4_res cancel(RpcCall call, nlm4_cancargs a) {
    Target t = target(call, a.alock());
    int n = locks.cancel(t.file, t.owner, t.start, t.end);
    return new nlm4_res(a.cookie(), n > 0 ? Nlm4.NLM4_GRANTED : Nlm4.NLM4_DENIED);
  }

  nlm4_res unlock(RpcCall call, NlmXdr.nlm4_unlockargs a) {
    Target t = target(call, a.alock());
    LockTable.Result r = locks.unlock(t.file, t.owner, t.start, t.end);
    hosts.held(t.owner.client(), locks.held(t.owner.client()));
    return new nlm4_res(a.cookie(),
        r.status() == LockTable.Status.GRANTED ? Nlm4.NLM4_GRANTED : Nlm4.NLM4_DENIED_NOLOCKS);
  }

  /** FREE_ALL: the named client (from the calling address) rebooted; its locks go. */
  void freeAll(RpcCall call, nlm4_notify a) {
    int n = locks.releaseClient(clientOf(a.name(), call));
    hosts.forget(clientOf(a.name(), call));
    LOG.log(System.Logger.Level.INFO, "FREE_ALL from " + clientOf(a.name(), call) + ": " + n + " locks released");
  }

  /**
   * The client's NSM state number comes with every LOCK (nlm4_lockargs.state); it changes only when the client
   * reboots. A new value means the locks held under the old one belong to processes that no longer exist, which is
   * what SM_NOTIFY would have told a server with a status monitor: release them.
   */
  private void noteState(String client, int state) {
    if (state == 0) {
      return;
    }
    if (states.size() > MAX_STATES) {
      states.clear();
    }
    Integer before = states.put(client, state);
    if (before != null && before != state) {
      int n = locks.releaseClient(client);
      LOG.log(System.Logger.Level.INFO, "client " + client + " rebooted (NSM state " + before + " -> " + state
          + "): " + n + " locks released");
    }
  }

  /** SM_NOTIFY: the client rebooted into NSM state {@code state}; its locks go. */
  int rebooted(String client, int state) {
    if (state != 0) {
      states.put(client, state);
    }
    int n = locks.releaseClient(client);
    hosts.forget(client);
    LOG.log(System.Logger.Level.INFO, "SM_NOTIFY from " + client + " (NSM state " + state + "): " + n
        + " locks released");
    return n;
  }

  /** A lock request's file (its key, export and current path), owner and range. */
  private record Target(FileKey file, Export export, String path, Owner owner, long start, long end) {}

  private Target target(RpcCall call, nlm4_lock l) {
    File file = fileOf(call, l.fh());
    if (l.offset() < 0) {
      throw new NlmError(Nlm4.NLM4_FBIG, "offset past 2^63-1");
    }
    String id = Integer.toUnsignedString(l.svid()) + ":" + HexFormat.of().formatHex(l.oh());
    return new Target(file.key(), file.export(), file.path(), new Owner(clientOf(l.caller_name(), call), id),
        l.offset(), LockTable.end(l.offset(), l.length()));
  }

  /** The file an NFSv3 handle names. */
  private record File(FileKey key, Export export, String path) {}

  /**
   * TEST and LOCK: the caller (after the export's squashing) must be able to open the file ({@link
   * Permissions#mayLock}), else NLM4_FAILED (ENOLCK), as knfsd refuses it; a file gone meanwhile is NLM4_STALE_FH.
   */
  private static void checkMayLock(RpcCall call, Target t) {
    FileAttr a;
    try {
      a = t.export.fs().getattr(t.path);
    } catch (FsException ex) {
      throw new NlmError(ex.errno() == Errno.ENOENT ? Nlm4.NLM4_STALE_FH : Nlm4.NLM4_FAILED, ex.getMessage());
    }
    if (!Permissions.mayLock(a, Identities.caller(call.getCredential(), t.export))) {
      throw new NlmError(Nlm4.NLM4_FAILED, "no read or write permission on " + t.path);
    }
  }

  /** The calling host as the monitor list records it: caller_name, its address and the address of ours it called. */
  private static MonitorList.Host host(RpcCall call, String callerName) {
    InetSocketAddress from = call.getTransport().getRemoteSocketAddress();
    InetSocketAddress to = call.getTransport().getLocalSocketAddress();
    return new MonitorList.Host(callerName, from == null ? "?" : from.getAddress().getHostAddress(),
        to == null ? "?" : to.getAddress().getHostAddress());
  }

  private static String clientOf(String callerName, RpcCall call) {
    InetSocketAddress a = call.getTransport().getRemoteSocketAddress();
    return callerName + "@" + (a == null ? "?" : a.getAddress().getHostAddress());
  }

  /** The file of an NFSv3 handle, checked as NFS checks it (export networks, secure port, AUTH flavour). */
  private File fileOf(RpcCall call, byte[] fh) {
    if (fh.length > io.ossgw.nfs.xdr.Nfs3.NFS3_FHSIZE) {
      throw new NlmError(Nlm4.NLM4_STALE_FH, "not a handle of this server");
    }
    FileHandles.Decoded d = handles.decode(new nfs_fh3(fh));
    if (d == null) {
      throw new NlmError(Nlm4.NLM4_STALE_FH, "not a handle of this server");
    }
    Export e = exports.byId(d.exportId());
    if (e == null) {
      throw new NlmError(Nlm4.NLM4_STALE_FH, "export " + d.exportId() + " is gone");
    }
    Identities.requireAccepted(call.getCredential(), e);
    InetSocketAddress client = call.getTransport().getRemoteSocketAddress();
    if (client == null || !e.allows(client.getAddress()) || (e.secure() && client.getPort() >= 1024)) {
      throw new NlmError(Nlm4.NLM4_FAILED, "client " + client + " may not use " + e.path());
    }
    String path = issuer.pathOf(e.id(), d);
    if (path == null) {
      throw new NlmError(Nlm4.NLM4_STALE_FH, "fileid " + d.fileid() + " of " + e.path() + " is gone");
    }
    return new File(new FileKey(e.id(), d.fileid()), e, path);
  }

  private static Mode mode(boolean exclusive) {
    return exclusive ? Mode.EXCLUSIVE : Mode.SHARED;
  }

  /** nlm4_holder of a held lock; svid and owner handle come back out of the owner id this class made. */
  private static nlm4_holder holder(LockTable.Lock h) {
    int svid = 0;
    byte[] oh = new byte[0];
    String id = h.owner().id();
    int colon = id.indexOf(':');
    if (colon > 0) {
      try {
        svid = Integer.parseUnsignedInt(id.substring(0, colon));
        oh = HexFormat.of().parseHex(id.substring(colon + 1));
      } catch (IllegalArgumentException e) {
        svid = 0; // an owner of another front end: no NLM identity to show
      }
    }
    long length = h.end() == LockTable.TO_EOF ? 0 : h.end() - h.start() + 1;
    return new nlm4_holder(h.mode() == Mode.EXCLUSIVE, svid, oh, h.start(), length);
  }
}
