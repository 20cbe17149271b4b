package io.ossgw.nfs.nlm;

import io.ossgw.nfs.xdr.Xdrs;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.dcache.oncrpc4j.portmap.OncRpcPortmap;
import org.dcache.oncrpc4j.portmap.mapping;
import org.dcache.oncrpc4j.rpc.OncRpcClient;
import org.dcache.oncrpc4j.rpc.RpcAuthTypeNone;
import org.dcache.oncrpc4j.rpc.RpcCall;
import org.dcache.oncrpc4j.rpc.RpcTransport;
import org.dcache.oncrpc4j.rpc.net.IpProtocolType;
import org.dcache.oncrpc4j.xdr.XdrInt;
import org.dcache.oncrpc4j.xdr.XdrVoid;

/**
 * Tells NLM client hosts that this server restarted or took over (what Linux sm-notify does at boot; XNFS chapter 11):
 * to each host of the {@link MonitorList} it sends SM_NOTIFY (NSM program 100024 version 1, procedure 6, arguments
 * {@code stat_chge{mon_name, state}}) over UDP, to the statd port its rpcbind names (PMAPPROC_GETPORT, portmapper
 * version 2, over UDP). The client's statd passes it to its lockd, which reclaims its locks (LOCK with reclaim set) in
 * our grace period.
 *
 * <p>{@code mon_name} is the address of ours the host called (its statd monitors us under the name it mounted, which
 * the Linux client sends as an address), or a configured name (behind a load balancer: the balancer's address or
 * name). Each host gets up to {@code attempts} tries, waiting {@code firstWait}, then twice that, and so on, between
 * them; a host still unreachable is logged once and dropped from the list. It runs on virtual threads, at most
 * {@value #PARALLEL} hosts at once, and never holds up serving.
 */
final class SmNotifier implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(SmNotifier.class.getName());
  /** Hosts notified at once. */
  static final int PARALLEL = 16;
  static final int SM_NOTIFY = 6;
  private static final int IPPROTO_UDP = 17;

  private final int rpcbindPort;
  private final String name;
  private final Duration firstWait;
  private final int attempts;
  private final Duration timeout;
  private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("sm-notify-", 0).factory());
  private final Semaphore parallel = new Semaphore(PARALLEL);

  /**
   * @param rpcbindPort the hosts' rpcbind port (111)
   * @param name the {@code mon_name} to send, or null for the address each host called
   * @param firstWait the wait after the first failed try (doubled after each)
   * @param attempts tries per host, at least 1
   * @param timeout how long each RPC (GETPORT, SM_NOTIFY) waits for its reply
   */
  SmNotifier(int rpcbindPort, String name, Duration firstWait, int attempts, Duration timeout) {
    this.rpcbindPort = rpcbindPort;
    this.name = name;
    this.firstWait = firstWait;
    this.attempts = Math.max(1, attempts);
    this.timeout = timeout;
  }

  /**
   * Starts notifying {@code hosts} of NSM state {@code state}; {@code done} runs for each host once it was notified or
   * given up on. Returns at once.
   */
  void notifyAll(List<MonitorList.Host> hosts, int state, Consumer<MonitorList.Host> done) {
    if (!hosts.isEmpty()) {
      LOG.log(System.Logger.Level.INFO, "NSM state " + state + ": notifying " + hosts.size()
          + " NLM client host(s) (SM_NOTIFY) so they reclaim their locks");
    }
    for (MonitorList.Host h : hosts) {
      threads.execute(() -> notifyOne(h, state, done));
    }
  }

  private void notifyOne(MonitorList.Host h, int state, Consumer<MonitorList.Host> done) {
    String monName = name != null ? name : h.server();
    Exception last = null;
    long wait = firstWait.toMillis();
    try {
      for (int i = 1; i <= attempts; i++) {
        parallel.acquire();
        try {
          send(InetAddress.getByName(h.address()), monName, state);
          LOG.log(System.Logger.Level.INFO, "SM_NOTIFY sent to " + h.key() + " (mon_name " + monName + ", state "
              + state + ")");
          done.accept(h);
          return;
        } catch (IOException | TimeoutException | RuntimeException e) {
          last = e;
        } finally {
          parallel.release();
        }
        if (i < attempts) {
          Thread.sleep(wait);
          wait *= 2;
        }
      }
    } catch (InterruptedException e) {
      return; // the server stops: the host stays recorded and is notified at the next start
    }
    LOG.log(System.Logger.Level.WARNING, "cannot notify NLM client host " + h.key() + " of NSM state " + state
        + " after " + attempts + " tries (" + last + "): dropped from the monitor list; its locks are not reclaimed");
    done.accept(h);
  }

  /** GETPORT of the host's statd over UDP at its rpcbind, then SM_NOTIFY to it. */
  private void send(InetAddress host, String monName, int state)
      throws IOException, TimeoutException {
    int port;
    try (OncRpcClient pm = new OncRpcClient(host, IpProtocolType.UDP, rpcbindPort)) {
      RpcTransport t = pm.connect(timeout.toMillis(), TimeUnit.MILLISECONDS);
      XdrInt p = new XdrInt();
      new RpcCall(OncRpcPortmap.PORTMAP_PROGRAMM, OncRpcPortmap.PORTMAP_V2, new RpcAuthTypeNone(), t)
          .call(OncRpcPortmap.PMAPPROC_GETPORT, new mapping(Nsm1Program.PROGRAM, Nsm1Program.VERSION, IPPROTO_UDP, 0),
              p, timeout.toMillis(), TimeUnit.MILLISECONDS);
      port = p.intValue();
    }
    if (port <= 0 || port > 65535) {
      throw new IOException("no statd (program " + Nsm1Program.PROGRAM + " v1 UDP) registered at " + host
          .getHostAddress() + ":" + rpcbindPort);
    }
    try (OncRpcClient sm = new OncRpcClient(host, IpProtocolType.UDP, port)) {
      RpcTransport t = sm.connect(timeout.toMillis(), TimeUnit.MILLISECONDS);
      new RpcCall(Nsm1Program.PROGRAM, Nsm1Program.VERSION, new RpcAuthTypeNone(), t)
          .call(SM_NOTIFY, Xdrs.encoder(new Nsm1Program.stat_chge(monName, state)), XdrVoid.XDR_VOID,
              timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** Stops notifying: hosts not notified yet stay in the list. */
  @Override
  public void close() {
    threads.shutdownNow();
  }
}
