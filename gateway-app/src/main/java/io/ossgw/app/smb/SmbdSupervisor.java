package io.ossgw.app.smb;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * Runs smbd as a child process and keeps it running.
 *
 * <p>smbd runs in the foreground ({@code --foreground --debug-stdout -s <smb.conf>}): its stdout/stderr lines go to
 * the logger {@code io.ossgw.app.smb.smbd}. It keeps its own process group: with {@code --no-process-group} smbd
 * stays in the gateway's group and, when it stops, signals that whole group with SIGTERM, the gateway included
 * (observed with Samba 4.17). When it exits
 * unexpectedly it is started again after a {@link Backoff} delay, and {@link #restarts()} counts that. {@link #close}
 * sends SIGTERM (smbd then stops its per-connection children) and SIGKILL to whatever is left after the stop timeout.
 *
 * <p>smbd starts with a clean environment ({@link SambaTools#cleanEnvironment}): only PATH and the locale pass, so
 * the gateway's OSS credentials never show in {@code /proc/<smbd>/environ}.
 *
 * <p>Where util-linux {@code setpriv} exists, smbd is started through {@code setpriv --pdeathsig TERM}, so it is
 * stopped even when the gateway is killed with SIGKILL instead of holding the port and serving a dead FUSE mount. The
 * parent-death signal fires when the <em>thread</em> that forked the child ends, so every start happens on the
 * supervisor's own platform thread, which lives until {@link #close}.
 */
public final class SmbdSupervisor implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(SmbdSupervisor.class);
  private static final Logger SMBD = Logger.getLogger("io.ossgw.app.smb.smbd");
  private static final int TAIL_LINES = 20;
  private static final Duration PROBE_STEP = Duration.ofMillis(50);

  private final List<String> command;
  private final InetSocketAddress listen;
  private final Backoff backoff;
  private final Duration stopTimeout;
  private final LongSupplier nanoTime;
  private final Object lock = new Object();
  private final Deque<String> tail = new ArrayDeque<>();
  private Thread thread;
  private Process process;
  private boolean stopping;
  private boolean up; // set once start() saw smbd listen: an exit before that fails start() instead of restarting
  private long starts;
  private long restarts;
  private Integer lastExit;
  private IOException spawnError;

  /**
   * @param command the full smbd command line (see {@link #smbdCommand})
   * @param listen where smbd listens once up (a loopback address when it listens on every interface)
   * @param backoff restart delays
   * @param stopTimeout SIGTERM to SIGKILL grace
   * @param nanoTime the clock that measures uptime for the backoff reset ({@code System::nanoTime})
   */
  public SmbdSupervisor(List<String> command, InetSocketAddress listen, Backoff backoff, Duration stopTimeout,
      LongSupplier nanoTime) {
    this.command = List.copyOf(command);
    this.listen = Objects.requireNonNull(listen, "listen");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
  }

  /**
   * The command that runs smbd in the foreground with {@code conf}, behind {@code setpriv --pdeathsig TERM} when
   * setpriv is installed.
   */
  public static List<String> smbdCommand(Path smbd, Path conf) {
    List<String> c = new ArrayList<>();
    SambaTools.find("setpriv").ifPresent(sp -> c.addAll(List.of(sp.toString(), "--pdeathsig", "TERM")));
    c.addAll(List.of(smbd.toString(), "--foreground", "--debug-stdout", "-s", conf.toString()));
    return c;
  }

  /**
   * Starts smbd and waits until it accepts TCP connections.
   *
   * @param timeout how long smbd may take to listen
   * @throws SmbException if the port is taken already, if smbd exits first (with its last log lines) or does not
   *     listen in time; nothing is left running then
   */
  public void start(Duration timeout) {
    if (accepts()) {
      throw new SmbException("cannot serve SMB on " + listen + ": something else listens there already "
          + "(another smbd? set ossgw.smb.port or ossgw.smb.bind)");
    }
    synchronized (lock) {
      if (thread != null) {
        throw new IllegalStateException("already started");
      }
      thread = Thread.ofPlatform().daemon().name("ossgw-smbd-supervisor").start(this::supervise);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String failure = null;
      synchronized (lock) {
        if (spawnError != null) {
          failure = "cannot start " + command.getFirst() + ": " + spawnError.getMessage();
        } else if (lastExit != null) {
          failure = "smbd exited with status " + lastExit + " right after starting";
        }
      }
      if (failure != null) {
        close();
        String log;
        synchronized (tail) {
          log = String.join("\n  ", tail);
        }
        throw new SmbException(failure + (log.isEmpty() ? "" : "; its last output:\n  " + log));
      }
      if (accepts()) {
        synchronized (lock) {
          if (process != null && process.isAlive()) {
            up = true;
            return;
          }
        }
        // smbd died meanwhile: the next round reports it
      }
      if (System.nanoTime() > deadline) {
        close();
        throw new SmbException("smbd did not listen on " + listen + " within " + timeout.toSeconds() + " s");
      }
      try {
        Thread.sleep(PROBE_STEP);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        throw new SmbException("interrupted while starting smbd", e);
      }
    }
  }

  private boolean accepts() {
    try (Socket s = new Socket()) {
      s.connect(listen, 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void supervise() {
    while (true) {
      Process p;
      synchronized (lock) {
        if (stopping) {
          return;
        }
        try {
          // a clean environment: smbd must not inherit the gateway's OSS credentials (SambaTools.PASSED_ENV)
          p = SambaTools.cleanEnvironment(new ProcessBuilder(command)).redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        } catch (IOException e) {
          spawnError = e;
          LOG.errorf("cannot start smbd: %s", e.getMessage());
          return;
        }
        process = p;
        starts++;
      }
      LOG.infof("smbd started (pid %d)", p.pid());
      long t0 = nanoTime.getAsLong();
      Thread pump = Thread.ofVirtual().name("ossgw-smbd-log").start(() -> forward(p));
      int rc = waitFor(p);
      try {
        pump.join(Duration.ofSeconds(2)); // the pipe closes with smbd unless a child holds it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Duration uptime = Duration.ofNanos(nanoTime.getAsLong() - t0);
      synchronized (lock) {
        process = null;
        lastExit = rc;
        if (stopping || !up) {
          return;
        }
        Duration delay = backoff.next(uptime);
        restarts++;
        LOG.warnf("smbd (pid %d) exited with status %d after %d s; restarting it in %d ms (restart %d)", p.pid(), rc,
            uptime.toSeconds(), delay.toMillis(), restarts);
        long until = System.nanoTime() + delay.toNanos();
        while (!stopping && System.nanoTime() < until) {
          try {
            TimeUnit.NANOSECONDS.timedWait(lock, Math.max(1, until - System.nanoTime()));
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }
  }

  private static int waitFor(Process p) {
    while (true) {
      try {
        return p.waitFor();
      } catch (InterruptedException e) {
        // only close() interrupts, after stopping the process; keep waiting for its exit status
      }
    }
  }

  private void forward(Process p) {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String l = line.strip();
        if (l.isEmpty()) {
          continue;
        }
        SMBD.info(l);
        synchronized (tail) {
          if (tail.size() == TAIL_LINES) {
            tail.removeFirst();
          }
          tail.addLast(l);
        }
      }
    } catch (IOException e) {
      // the stream closes when smbd is killed
    }
  }

  /** True while an smbd process is alive (false during a restart delay and after {@link #close}). */
  public boolean isRunning() {
    synchronized (lock) {
      return process != null && process.isAlive();
    }
  }

  /** How many times smbd was restarted after exiting on its own (for metrics). */
  public long restarts() {
    synchronized (lock) {
      return restarts;
    }
  }

  /** The running smbd's pid (the parent of its per-connection children). */
  public OptionalLong pid() {
    synchronized (lock) {
      return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }
  }

  /** The address smbd listens on. */
  public InetSocketAddress listen() {
    return listen;
  }

  /** Stops supervising, then smbd: SIGTERM, and SIGKILL for it and its children after the stop timeout. Idempotent. */
  @Override
  public void close() {
    Process p;
    Thread t;
    synchronized (lock) {
      stopping = true;
      lock.notifyAll();
      p = process;
      t = thread;
    }
    if (p != null && p.isAlive()) {
      List<ProcessHandle> children = p.descendants().toList();
      p.destroy(); // SIGTERM: smbd stops its children itself
      try {
        if (!p.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
          LOG.warnf("smbd (pid %d) did not stop within %d s of SIGTERM: killing it", p.pid(), stopTimeout.toSeconds());
          p.destroyForcibly();
          p.waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
      children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
      LOG.infof("smbd stopped");
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Stops an smbd left running by an earlier gateway on the same state directory (its pid file names a live smbd
   * whose command line has our smb.conf), which would otherwise hold the port.
   *
   * @return true if one was found and stopped
   * @throws SmbException if that smbd's parent is a live JVM: another gateway uses the same state directory
   */
  public static boolean stopLeftover(Path pidFile, Path conf, Duration timeout) {
    long pid;
    try {
      if (!Files.isRegularFile(pidFile)) {
        return false;
      }
      pid = Long.parseLong(Files.readString(pidFile).strip());
    } catch (IOException | NumberFormatException | UncheckedIOException e) {
      return false;
    }
    var handle = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (handle.isEmpty()) {
      return false;
    }
    String cmd = handle.get().info().commandLine().orElse("");
    if (!cmd.contains("smbd") || !cmd.contains(conf.toString())) {
      return false; // the pid was reused by something else
    }
    var parent = handle.get().parent().filter(ProcessHandle::isAlive);
    if (parent.isPresent() && parent.get().pid() != 1
        && parent.get().info().command().orElse("").endsWith("java")) {
      throw new SmbException("another gateway (pid " + parent.get().pid() + ") runs an smbd (pid " + pid + ") with "
          + conf + ": give this one another ossgw.state-dir");
    }
    LOG.warnf("an smbd (pid %d) of an earlier run still serves %s: stopping it", pid, conf);
    List<ProcessHandle> children = handle.get().descendants().toList();
    handle.get().destroy();
    try {
      handle.get().onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      handle.get().destroyForcibly();
    }
    children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    return true;
  }
}
