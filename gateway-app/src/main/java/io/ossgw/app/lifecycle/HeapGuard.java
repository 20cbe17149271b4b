package io.ossgw.app.lifecycle;

import io.ossgw.app.cli.ExitCodes;
import io.ossgw.emulator.util.OldGeneration;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes an exhausted Java heap end the process at once, visibly and with a non-zero status, instead of leaving it
 * collecting garbage forever (issue 21 item 4: an {@code ossgw mount} whose heap was full kept a core busy in the
 * collector for 58 minutes, answered nothing and ignored SIGTERM: the JVM runs a Java signal handler on a new thread,
 * which a full heap cannot allocate). Installed by {@code ossgw} for every command ({@code mount}, {@code serve},
 * {@code demo}, {@code emulator}) before anything else starts. SEMANTICS.md "Memory".
 *
 * <p>A platform thread samples the collectors every {@link HeapExhaustion#PERIOD_MILLIS} ms and applies
 * {@link HeapExhaustion}; an {@link OutOfMemoryError} that ends a thread while the old generation is
 * {@link HeapExhaustion#OCCUPANCY} full counts as exhaustion too. Then, once per process:
 *
 * <ol>
 *   <li>a 1 MiB reserve held since start is let go, so the steps below can allocate;
 *   <li>a {@code FATAL:} line, formatted at start, goes to stderr (fd 2: the log file of a background mount), naming
 *       the heap ({@code -Xmx}), {@code memory_limit} and how to give the process more memory;
 *   <li>the registered actions run ({@link #onFatal}: each FUSE mount of the process is detached with
 *       {@code fusermount -u -z} by a helper process started with the mount, or its line names the command that
 *       clears it), then a line with what the guard measured;
 *   <li>the process halts with {@link ExitCodes#HEAP_EXHAUSTED} without running shutdown hooks (they would need the
 *       memory that is missing); should the steps above hang, a second thread halts it {@link #HALT_AFTER_SECONDS} s
 *       after the FATAL line.
 * </ol>
 *
 * <p>Files not yet uploaded are lost as in a kill -9 (what close or fsync confirmed is in OSS; the metadata store
 * aborts the multipart uploads the process left at its next start). {@code -Dio.ossgw.heap.guard=false} turns the
 * guard off; its tests drive it with {@link HeapBallast}.
 */
public final class HeapGuard {
  /** Seconds between the FATAL line and the halt at the latest, whatever the actions do. */
  public static final long HALT_AFTER_SECONDS = 10;

  private static final int RESERVE_BYTES = 1 << 20;
  private static volatile HeapGuard installed;

  /** One step of the fatal sequence: does its work and returns the line to report (or null). */
  @FunctionalInterface
  public interface FatalAction {
    String run() throws Exception;
  }

  /** An action's registration; closing it removes the action. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  private final byte[] fatalLine;
  private final List<FatalAction> actions = new CopyOnWriteArrayList<>();
  private final AtomicBoolean fired = new AtomicBoolean();
  private final FileOutputStream stderr = new FileOutputStream(FileDescriptor.err);
  private final OldGeneration oldGeneration = OldGeneration.ofThisJvm();
  private final GarbageCollectorMXBean[] collectors = pauseCollectors();
  private final HeapExhaustion rule = new HeapExhaustion();
  /** Heap let go at the fatal sequence, so that its reporting can allocate; never read. */
  private volatile byte[] reserve = new byte[RESERVE_BYTES];
  private volatile Thread halter;
  private volatile Reason reason;
  private volatile String uncaughtThread;
  private volatile String uncaughtMessage;

  /** Why the guard fired, for the detail line. */
  private enum Reason { SAMPLES, UNCAUGHT, GUARD_CANNOT_ALLOCATE }

  private HeapGuard(String command) {
    this.fatalLine = fatalLine(command, System.getProperty("io.ossgw.memory_limit"), heapSize()).getBytes(
        StandardCharsets.UTF_8);
  }

  /**
   * Starts the guard of this process (once; later calls return the same guard), or returns null when
   * {@code -Dio.ossgw.heap.guard=false}.
   *
   * @param command what the process is, for the FATAL line: {@code ossgw mount BUCKET /mnt/x}
   */
  public static synchronized HeapGuard install(String command) {
    if (installed != null || !Boolean.parseBoolean(System.getProperty("io.ossgw.heap.guard", "true"))) {
      return installed;
    }
    HeapGuard g = new HeapGuard(command);
    g.warmUp();
    g.halter = Thread.ofPlatform().daemon().name("ossgw-heap-guard-halt").start(g::haltLater);
    Thread.ofPlatform().daemon().name("ossgw-heap-guard").priority(Thread.MAX_PRIORITY).start(g::watch);
    Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> g.uncaught(t, e, previous));
    installed = g;
    HeapBallast.startIfAsked();
    return g;
  }

  /** Whether a guard runs in this process. */
  public static boolean installed() {
    return installed != null;
  }

  /**
   * Adds a step to the fatal sequence of this process's guard, e.g. detaching a FUSE mount; a no-op registration when
   * no guard is installed (tests, {@code -Dio.ossgw.heap.guard=false}).
   */
  public static Registration onFatal(FatalAction action) {
    HeapGuard g = installed;
    if (g == null) {
      return () -> {};
    }
    g.actions.add(action);
    return () -> g.actions.remove(action);
  }

  /**
   * The FATAL line: {@code command}, the heap, {@code memory_limit} if the launcher derived the sizes from one
   * ({@code -Dio.ossgw.memory_limit=MB}), the exit status and how to give the process more memory.
   */
  static String fatalLine(String command, String memoryLimitMb, String heap) {
    return "FATAL: " + command + ": the Java heap is exhausted (" + heap
        + (memoryLimitMb == null ? "" : "; memory_limit=" + memoryLimitMb + " MB") + "): it is almost full after"
        + " every collection and collecting takes most of the time, so the process stops here with exit status "
        + ExitCodes.HEAP_EXHAUSTED + " (to be restarted) instead of hanging. Give it more memory: a larger"
        + " memory_limit (-o memory_limit=MB, OSSGW_MEMORY_LIMIT, ossgw.options.memory_limit, or the container's"
        + " memory limit; half of it is the heap), or -Xmx in OSSGW_JAVA_OPTS, which wins over memory_limit.\n";
  }

  /** {@code -Xmx...} as given to this JVM (the last one wins), else the maximum the JVM chose. */
  private static String heapSize() {
    String xmx = null;
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("-Xmx")) {
        xmx = a;
      }
    }
    return xmx != null ? xmx : "heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MB, the JVM's default";
  }

  /**
   * Links and loads everything the sampling loop and the fatal sequence use (a lambda or class first used on a full
   * heap would need memory to be set up, and fail), so that after start they allocate nothing up to the FATAL line.
   */
  private void warmUp() {
    new HeapExhaustion().exhausted(System.nanoTime(), gcMillis(), occupancy());
    reason = Reason.SAMPLES;
    detail();
    reason = null;
    write(new byte[0]);
  }

  private void watch() {
    int failures = 0;
    while (!fired.get()) {
      try {
        Thread.sleep(HeapExhaustion.PERIOD_MILLIS);
        if (rule.exhausted(System.nanoTime(), gcMillis(), occupancy())) {
          fatal(Reason.SAMPLES);
        }
        failures = 0;
      } catch (OutOfMemoryError e) {
        // even this thread's few bytes could not be had: that is exhaustion too, once it is not a one-off
        if (++failures >= 3) {
          fatal(Reason.GUARD_CANNOT_ALLOCATE);
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable e) {
        failures = 0; // a management bean failed: try again at the next sample
      }
    }
  }

  private void uncaught(Thread t, Throwable e, Thread.UncaughtExceptionHandler previous) {
    try {
      if (e instanceof OutOfMemoryError && heapFull()) {
        uncaughtThread = t.getName();
        uncaughtMessage = e.getMessage();
        fatal(Reason.UNCAUGHT);
      }
      if (previous != null) {
        previous.uncaughtException(t, e);
      } else {
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
      }
    } catch (Throwable ignored) {
      // reporting needs memory too; the guard's own sampling still watches the heap
    }
  }

  /** The old generation is {@link HeapExhaustion#OCCUPANCY} full, or too full to even measure it. */
  private boolean heapFull() {
    try {
      return occupancy() >= HeapExhaustion.OCCUPANCY;
    } catch (OutOfMemoryError e) {
      return true;
    }
  }

  /**
   * The fatal sequence (see the class comment); runs once, on the thread that found the heap exhausted. Allocates
   * nothing before the FATAL line is out and the actions have been told (the reserve it lets go is for the rest).
   */
  private void fatal(Reason why) {
    if (!fired.compareAndSet(false, true)) {
      return;
    }
    reason = why;
    reserve = null;
    write(fatalLine);
    LockSupport.unpark(halter);
    for (int i = 0; i < actions.size(); i++) { // no iterator: nothing allocated
      try {
        String line = actions.get(i).run();
        if (line != null) {
          write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      } catch (Throwable e) {
        // the next action and the halt matter more than this one's report
      }
    }
    try {
      write(detail().getBytes(StandardCharsets.UTF_8));
    } catch (Throwable e) {
      // the FATAL line is out; the halt matters more
    }
    Runtime.getRuntime().halt(ExitCodes.HEAP_EXHAUSTED);
  }

  /** The line after the FATAL line and the actions' lines: what the guard measured. */
  private String detail() {
    return switch (reason) {
      case SAMPLES -> "ossgw: the old generation was " + Math.round(rule.lastOccupancy() * 100) + "% full after its"
          + " last collection, and collecting took " + Math.round(rule.lastShare() * 100) + "% of the last "
          + HeapExhaustion.WINDOW_MILLIS / 1000 + " s\n";
      case UNCAUGHT -> "ossgw: an OutOfMemoryError (" + uncaughtMessage + ") ended thread " + uncaughtThread
          + " with the old generation full\n";
      case GUARD_CANNOT_ALLOCATE -> "ossgw: the heap guard itself could not allocate three times in a row\n";
    };
  }

  private void write(byte[] line) {
    try {
      stderr.write(line); // fd 2 directly: System.err's lock may be held by a thread stuck in an allocation
    } catch (IOException e) {
      // nowhere to report it
    }
  }

  private void haltLater() {
    while (!fired.get()) {
      LockSupport.park(this);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HALT_AFTER_SECONDS);
    while (System.nanoTime() < deadline) {
      LockSupport.parkNanos(this, deadline - System.nanoTime());
    }
    Runtime.getRuntime().halt(ExitCodes.HEAP_EXHAUSTED);
  }

  private long gcMillis() {
    long total = 0;
    for (GarbageCollectorMXBean c : collectors) {
      total += Math.max(0, c.getCollectionTime());
    }
    return total;
  }

  /** The old generation's occupancy after its last collection, 0..1. */
  private double occupancy() {
    return oldGeneration.occupancy();
  }

  /**
   * The collectors whose time is pause time: all but the concurrent cycles of ZGC and Shenandoah ("... Cycles"), whose
   * time runs beside the application.
   */
  private static GarbageCollectorMXBean[] pauseCollectors() {
    List<GarbageCollectorMXBean> all = ManagementFactory.getGarbageCollectorMXBeans();
    List<GarbageCollectorMXBean> pauses = new ArrayList<>(all.size());
    for (GarbageCollectorMXBean c : all) {
      if (!c.getName().contains("Cycles")) {
        pauses.add(c);
      }
    }
    return pauses.toArray(new GarbageCollectorMXBean[0]);
  }
}
