package io.ossgw.nfs.rpc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.dcache.oncrpc4j.rpc.ReplyQueue;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.nio.transport.TCPNIOServerConnection;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.strategies.SameThreadIOStrategy;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;

/**
 * An ONC RPC server over TCP (RFC 5531) built from oncrpc4j's parts on a Grizzly transport: record marking with a
 * size limit ({@link RecordStream}), header checks, per-connection, per-address and total in-flight caps
 * ({@link FlowControl}), a connection table that refuses networks no export allows, closes idle, half-sent and
 * stalled connections and evicts the longest-idle one at the cap ({@link ConnectionTable}), and a virtual-thread
 * worker per call, so blocking VFS calls never hold a selector thread. Several programs (NFS and MOUNT) share the
 * port.
 */
public final class RpcServer {
  private static final System.Logger LOG = System.getLogger(RpcServer.class.getName());

  /**
   * Limits and threads.
   *
   * @param bindAddress address to listen on ("0.0.0.0", "127.0.0.1", ...)
   * @param port TCP port, 0 for an ephemeral one
   * @param maxRecord largest RPC record accepted, bytes; larger ones close the connection
   * @param maxFragments most fragments per record
   * @param perConnectionInFlight calls in flight per connection before it stops being read
   * @param perPeerInFlight calls in flight from one client address (over all its connections) before its connections
   *     stop being read
   * @param totalInFlight calls in flight on the server before every connection stops being read
   * @param maxConnections at this many connections the longest-idle one is closed for a new one (refused if all
   *     are busy)
   * @param selectorThreads Grizzly selector threads (I/O only)
   * @param idleTimeout a connection with nothing in flight and nothing buffered this long is closed; 0 = never
   * @param recordTimeout a connection holding an incomplete record (nothing in flight) this long is closed; 0 = never
   * @param stallTimeout at the total cap or its address's, a connection whose queued replies have not moved this
   *     long is closed abortively; 0 = never
   */
  public record Limits(String bindAddress, int port, int maxRecord, int maxFragments, int perConnectionInFlight,
      int perPeerInFlight, int totalInFlight, int maxConnections, int selectorThreads, Duration idleTimeout, Duration recordTimeout,
      Duration stallTimeout) {}

  private final Limits limits;
  private final ExecutorService workers;
  private final ReplyQueue replyQueue = new ReplyQueue();
  private final ReceiveMemory receiveMemory;
  private final ReplyMemory replyMemory;
  private final RpcServerFilter filter;
  private final ScheduledExecutorService sweeper;
  private TCPNIOTransport transport;
  private int port;

  /**
   * @param allowed whether a peer address may connect at all (some export allows its network)
   */
  public RpcServer(Limits limits, List<RpcProgram> programs, Predicate<InetAddress> allowed) {
    this(limits, programs, allowed, System::nanoTime, true);
  }

  /** With a clock (nanoseconds) and, for tests, no periodic sweep ({@link #sweep()} is then called by the test). */
  RpcServer(Limits limits, List<RpcProgram> programs, Predicate<InetAddress> allowed, LongSupplier clock,
      boolean sweepPeriodically) {
    this.limits = limits;
    // one name for all: a numbered name is a string built per call, and a call lives microseconds
    this.workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("nfs-rpc").factory());
    long direct = directMemory();
    this.receiveMemory = new ReceiveMemory(direct);
    this.replyMemory = new ReplyMemory(direct);
    this.filter = new RpcServerFilter(limits, new Dispatcher(programs), workers, replyQueue, replyMemory, clock,
        allowed);
    this.sweeper = sweepPeriodically ? Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "nfs-connection-sweeper");
      t.setDaemon(true);
      return t;
    }) : null;
  }

  /**
   * Direct memory for each of the receive and reply pools: an eighth of the JVM's direct memory, at most 64 MiB. The
   * engine's budget takes at most half of the direct memory (prefetch and upload buffers, {@code MemoryBudget}); FUSE
   * and these socket buffers share the rest. Past it, buffers are on the heap (slower, never refused).
   */
  static long directMemory() {
    return Math.min(64L << 20, io.ossgw.core.memory.MemoryBudget.maxDirectMemory() / 8);
  }

  /** Pooled receive pieces and reply buffers in use now, together (tests: all go back when the calls end). */
  long pooledInUse() {
    return receiveMemory.piecesInUse() + replyMemory.buffersInUse();
  }

  /** Applies the idle, incomplete-record and stalled-reply rules now (the server does it every {@link #sweepEvery}). */
  void sweep() {
    filter.table().sweep();
  }

  /** How often the rules are applied: a quarter of the shortest timeout, between 100 ms and 5 s. */
  Duration sweepEvery() {
    long shortest = Long.MAX_VALUE;
    for (Duration d : List.of(limits.idleTimeout(), limits.recordTimeout(), limits.stallTimeout())) {
      if (!d.isZero()) {
        shortest = Math.min(shortest, d.toMillis());
      }
    }
    return Duration.ofMillis(Math.clamp(shortest / 4, 100, 5000));
  }

  /**
   * Binds and starts serving.
   *
   * @return the bound port
   * @throws UncheckedIOException if the address cannot be bound
   */
  public synchronized int start() {
    ThreadPoolConfig selectors = ThreadPoolConfig.defaultConfig().copy().setPoolName("nfs-selector")
        .setCorePoolSize(limits.selectorThreads()).setMaxPoolSize(limits.selectorThreads());
    transport = TCPNIOTransportBuilder.newInstance()
        .setReuseAddress(true)
        .setTcpNoDelay(true)
        .setKeepAlive(true)
        .setIOStrategy(SameThreadIOStrategy.getInstance())
        .setMemoryManager(receiveMemory)
        .setSelectorThreadPoolConfig(selectors)
        .setSelectorRunnersCount(limits.selectorThreads())
        .build();
    transport.setProcessor(FilterChainBuilder.stateless()
        .add(new TransportFilter())
        .add(filter)
        .build());
    try {
      TCPNIOServerConnection server = transport.bind(limits.bindAddress(), limits.port(), 128);
      port = ((InetSocketAddress) server.getLocalAddress()).getPort();
      transport.start();
    } catch (IOException e) {
      stopQuietly();
      throw new UncheckedIOException("cannot listen on " + limits.bindAddress() + ":" + limits.port() + ": "
          + e.getMessage(), e);
    }
    if (sweeper != null) {
      long every = sweepEvery().toMillis();
      sweeper.scheduleWithFixedDelay(() -> {
        try {
          sweep();
        } catch (RuntimeException e) {
          LOG.log(System.Logger.Level.WARNING, "connection sweep failed", e);
        }
      }, every, every, TimeUnit.MILLISECONDS);
    }
    LOG.log(System.Logger.Level.INFO, "RPC server listening on " + limits.bindAddress() + ":" + port);
    return port;
  }

  /** The bound port (after {@link #start}). */
  public int port() {
    return port;
  }

  /** Calls in flight now (received and not yet answered). */
  public int inFlight() {
    return filter.inFlight();
  }

  /** Calls in flight now from one client address. */
  public int inFlight(InetAddress address) {
    return filter.inFlight(address);
  }

  /** Replies handed to the transport and not yet written, over all connections (tests). */
  int queuedReplies() {
    return filter.table().queuedReplies();
  }

  /** What was refused, closed and dropped since the last summary (tests). */
  ConnectionTable.Counters counters() {
    return filter.table().counters();
  }

  /** Open connections now. */
  public int connections() {
    return filter.connections();
  }

  /**
   * Stops accepting and reading, lets calls already running finish for up to {@code graceMillis}, then closes every
   * connection.
   */
  public synchronized void stop(long graceMillis) {
    if (transport == null) {
      return;
    }
    transport.unbindAll();
    workers.shutdown();
    try {
      if (!workers.awaitTermination(graceMillis, TimeUnit.MILLISECONDS)) {
        LOG.log(System.Logger.Level.WARNING, "RPC calls still running at shutdown: " + filter.inFlight());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    stopQuietly();
  }

  private void stopQuietly() {
    try {
      if (transport != null) {
        transport.shutdownNow();
      }
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "transport shutdown: " + e);
    }
    transport = null;
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
    workers.shutdownNow();
    replyQueue.shutdown();
  }
}
