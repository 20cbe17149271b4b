package io.ossgw.nfs.nlm;

import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.lock.LockTable;
import io.ossgw.nfs.export.Exports;
import io.ossgw.nfs.xdr.XdrReader;
import io.ossgw.nfs.xdr.XdrType;
import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.time.Duration;
import java.util.function.Function;
import org.dcache.oncrpc4j.rpc.OncRpcException;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * The Network Lock Manager, version 4 (program 100021; XNFS chapters 10-14, XDR in RFC 1813 appendix II), served on
 * the NFS port so that fcntl and flock locks of NFSv3 clients are shared through the gateway's {@link LockTable}.
 *
 * <ul>
 *   <li>NULL, TEST, LOCK, CANCEL, UNLOCK, NM_LOCK, FREE_ALL: see {@link LockProcs} (blocking requests included).
 *   <li>GRANTED is the server-to-client callback; a client calling it here gets NLM4_DENIED.
 *   <li>SHARE (DOS share reservations of PC-NFS clients; Linux never sends them) answers NLM4_FAILED: none are kept.
 *       UNSHARE answers NLM4_GRANTED (nothing to release).
 *   <li>The asynchronous _MSG and _RES procedures (6-15) need a call back to the client: PROC_UNAVAIL. The Linux
 *       client uses only the synchronous ones.
 * </ul>
 *
 * Undecodable arguments are GARBAGE_ARGS (by the dispatcher); a handle that is not valid is NLM4_STALE_FH.
 */
public final class Nlm4Program implements RpcDispatchable {
  private final LockProcs procs;

  /**
   * @param locks the lock table (shared with other front ends)
   * @param lockWait how long a blocking LOCK waits on the server before the client is told to ask again
   * @param maxHeld most blocking LOCK calls waiting at once
   */
  public Nlm4Program(Exports exports, InodeTable table, LockTable locks, Duration lockWait, int maxHeld) {
    this(exports, table, locks, lockWait, maxHeld, () -> false);
  }

  /**
   * @param locks the lock table (shared with other front ends)
   * @param lockWait how long a blocking LOCK waits on the server before the client is told to ask again
   * @param maxHeld most blocking LOCK calls waiting at once
   * @param inGrace whether the NFSv4.1 grace period runs: TEST and non-reclaim LOCK then answer
   *     NLM4_DENIED_GRACE_PERIOD, so an NLM client cannot take a lock a v4.1 client has yet to reclaim
   */
  public Nlm4Program(Exports exports, InodeTable table, LockTable locks, Duration lockWait, int maxHeld,
      java.util.function.BooleanSupplier inGrace) {
    this(exports, table, locks, lockWait, maxHeld, inGrace, MonitorList.none(java.time.Clock.systemUTC()));
  }

  /**
   * As {@link #Nlm4Program(Exports, InodeTable, LockTable, Duration, int, java.util.function.BooleanSupplier)}, with
   * the hosts taking locks recorded in {@code hosts} (so they can be sent SM_NOTIFY after a restart or takeover)
   *
   * @param inGrace whether the grace period runs (NFSv4.1 clients or NLM hosts from before reclaiming): TEST and
   *     non-reclaim LOCK then answer NLM4_DENIED_GRACE_PERIOD
   */
  public Nlm4Program(Exports exports, InodeTable table, LockTable locks, Duration lockWait, int maxHeld,
      java.util.function.BooleanSupplier inGrace, MonitorList hosts) {
    this.procs = new LockProcs(exports, table, locks, lockWait, maxHeld, inGrace, hosts);
  }

  /**
   * A client host rebooted (SM_NOTIFY): every lock it held is released.
   *
   * @param name the host's name as its lockd sends it (caller_name)
   * @param from the address the notification came from
   * @param state its new NSM state number
   * @return how many lock records were released
   */
  public int rebooted(String name, java.net.InetAddress from, int state) {
    return procs.rebooted(name + "@" + from.getHostAddress(), state);
  }

  /**
   * Starts sending SM_NOTIFY of this start's NSM state to the hosts {@code hosts} recorded before it ({@link
   * SmNotifier}), in the background; each is removed from the list once notified or given up on.
   *
   * @param rpcbindPort the hosts' rpcbind port (111)
   * @param name the mon_name to send, or null for the address each host called
   * @return what stops the notifications (the server stopping; hosts not notified yet stay recorded)
   */
  public static AutoCloseable notifyHosts(MonitorList hosts, int rpcbindPort, String name, Duration firstWait,
      int attempts, Duration timeout) {
    SmNotifier n = new SmNotifier(rpcbindPort, name, firstWait, attempts, timeout);
    n.notifyAll(hosts.toNotify(), hosts.state(), hosts::notified);
    return n;
  }

  @Override
  public void dispatchOncRpcCall(RpcCall call) throws OncRpcException, IOException {
    switch (call.getProcedure()) {
      case Nlm4.NLMPROC4_NULL -> {
        call.retrieveCall(XdrVoid.XDR_VOID);
        call.reply(XdrVoid.XDR_VOID);
      }
      case Nlm4.NLMPROC4_TEST -> {
        NlmXdr.nlm4_testargs a = args(call, NlmXdr.nlm4_testargs::decode);
        reply(call, () -> procs.test(call, a), st -> new NlmXdr.nlm4_testres(a.cookie(), st, null));
      }
      case Nlm4.NLMPROC4_LOCK, Nlm4.NLMPROC4_NM_LOCK -> {
        NlmXdr.nlm4_lockargs a = args(call, NlmXdr.nlm4_lockargs::decode);
        boolean monitored = call.getProcedure() == Nlm4.NLMPROC4_LOCK;
        reply(call, () -> procs.lock(call, a, monitored), st -> new NlmXdr.nlm4_res(a.cookie(), st));
      }
      case Nlm4.NLMPROC4_CANCEL -> {
        NlmXdr.nlm4_cancargs a = args(call, NlmXdr.nlm4_cancargs::decode);
        reply(call, () -> procs.cancel(call, a), st -> new NlmXdr.nlm4_res(a.cookie(), st));
      }
      case Nlm4.NLMPROC4_UNLOCK -> {
        NlmXdr.nlm4_unlockargs a = args(call, NlmXdr.nlm4_unlockargs::decode);
        reply(call, () -> procs.unlock(call, a), st -> new NlmXdr.nlm4_res(a.cookie(), st));
      }
      case Nlm4.NLMPROC4_GRANTED -> {
        NlmXdr.nlm4_testargs a = args(call, NlmXdr.nlm4_testargs::decode);
        call.reply(Xdrs.encoder(new NlmXdr.nlm4_res(a.cookie(), Nlm4.NLM4_DENIED)));
      }
      case Nlm4.NLMPROC4_SHARE, Nlm4.NLMPROC4_UNSHARE -> {
        NlmXdr.nlm4_shareargs a = args(call, NlmXdr.nlm4_shareargs::decode);
        int st = call.getProcedure() == Nlm4.NLMPROC4_SHARE ? Nlm4.NLM4_FAILED : Nlm4.NLM4_GRANTED;
        call.reply(Xdrs.encoder(new NlmXdr.nlm4_shareres(a.cookie(), st, 0)));
      }
      case Nlm4.NLMPROC4_FREE_ALL -> {
        NlmXdr.nlm4_notify a = args(call, NlmXdr.nlm4_notify::decode);
        procs.freeAll(call, a);
        call.reply(XdrVoid.XDR_VOID);
      }
      default -> call.failProcedureUnavailable();
    }
  }

  private static <T> T args(RpcCall call, Function<XdrReader, T> decoder) throws OncRpcException, IOException {
    Xdrs.Decoder<T> d = Xdrs.decoder(decoder);
    call.retrieveCall(d);
    return d.value();
  }

  private static void reply(RpcCall call, java.util.function.Supplier<XdrType> run,
      java.util.function.IntFunction<XdrType> fail) {
    XdrType r;
    try {
      r = run.get();
    } catch (LockProcs.NlmError e) {
      r = fail.apply(e.stat);
    }
    call.reply(Xdrs.encoder(r));
  }
}
