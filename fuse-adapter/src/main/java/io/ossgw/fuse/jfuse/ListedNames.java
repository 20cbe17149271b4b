package io.ossgw.fuse.jfuse;

import io.ossgw.fuse.FuseStats;
import io.ossgw.fuse.NativeMemory;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import org.cryptomator.jfuse.api.DirFiller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds the names the kernel keeps from READDIRPLUS, and with them libfuse 3's node table (issue 21: a FUSE {@code ls
 * -l} of 1,000,000 entries peaked at 385 MB at {@code memory_limit=256}, 160-180 MB of it libfuse's nodes outside the
 * JVM). libfuse's high-level API keeps a {@code struct node} (152 bytes in slab pages, plus 16 bytes of its two hash
 * tables) for every name the kernel holds a dentry of, and the kernel makes one for every READDIRPLUS entry and keeps
 * it until memory pressure or a FORGET-triggering invalidation; so a listing of N entries costs about 170 N bytes of
 * native memory that no memory_limit bounds.
 *
 * <p>Here every file entry a READDIRPLUS reply carried is remembered (its directory's libfuse node id and its name,
 * about 60 bytes of heap each, in one queue for the mount); once {@code keep} and a burst more are remembered, the
 * oldest are invalidated, down to {@code keep}, from threads of their own with {@code
 * fuse_lowlevel_notify_inval_entry} (FUSE_NOTIFY_INVAL_ENTRY, Linux 2.6.36+): the kernel drops the unused dentry,
 * evicts its inode (FUSE's {@code drop_inode} is {@code generic_delete_inode}: the inode goes with its last dentry),
 * queues a FORGET, and libfuse frees the node. What the kernel held was only a cache: a name stat'ed again is looked
 * up again, as after {@code entry_timeout}. Tools stat a listed name soon after the {@code getdents} that returned it
 * ({@code ls -l}, {@code find -ls}, {@code du}: glibc reads 32 KiB of names at a time, about 800), far inside {@code
 * keep}. Directories are never invalidated (a directory's dentry may carry mounts, which {@code d_invalidate} would
 * detach). A mount that has listed fewer than {@code keep} file names in all never invalidates anything.
 *
 * <p>The price (docs/benchmarks.md "Big directories"): about 12 CPU-s more for a cold {@code ls -l} of 1,000,000
 * entries (31 against 19), mostly the kernel's: a FORGET per name, whose queueing wakes a libfuse worker, and the
 * directory's own attributes marked stale by each invalidation (one GETATTR of the directory per burst).
 *
 * <p>Never from a FUSE worker: the kernel takes the directory's inode lock for the invalidation, and a {@code getdents}
 * holds it while it waits for the READDIRPLUS reply a worker is writing; the workers only append to a queue. The
 * directory's libfuse node id is not given to high-level callbacks: it is read from libfuse's {@code struct fuse_dh}
 * (the readdir filler's {@code buf}; 3.x layout: {@code struct fuse *} at 40, the user's {@code fh} at 96, {@code
 * nodeid} at 112), and used only while the {@code struct fuse *} and {@code fh} found there match this request's
 * ({@code fuse_get_context()}, the callback's {@code fi->fh}) and the root directory reads as node 1; any mismatch
 * turns this off for the mount, with a warning.
 *
 * <p>Several threads invalidate at once ({@code -Dio.ossgw.fuse.readdirplus_invalidators=N}, default {@value
 * #DEFAULT_INVALIDATORS}): each invalidation takes the directory's inode lock exclusively, and a listing in progress
 * holds it shared for every {@code getdents} (while its READDIRPLUS is answered). The kernel's rw-semaphore lets the
 * writers already waiting in before a reader that comes after them, so one thread got one invalidation through per
 * {@code getdents} (a few dozen to a few hundred names listed) and fell behind any big listing; N waiting threads get
 * about N through. With one thread a default-mode {@code ls} of 300,000 entries left a third of them in the kernel,
 * with eight or more none (docs/benchmarks.md "Listed names dropped by several threads"). The threads are platform
 * threads (a downcall would pin a virtual thread's carrier), started when a mount first has a burst to drop.
 *
 * <p>The queue itself is bounded too, at four times {@code keep}, should the invalidations still fall behind. A
 * name listed while the queue is full is not remembered: the kernel keeps it until its own reclaim (counted, {@link
 * FuseStats#namesNotTracked}, and logged once). Before this bound a default-mode {@code ls} of 1,000,000 entries at
 * {@code memory_limit=256} held 560,000 names (13 MB of records, as much again of names) and, after a rename of the
 * same directory had filled the inode table's cache, exhausted the heap.
 *
 * <p>{@code -Dio.ossgw.fuse.readdirplus_keep=N} (default {@value #DEFAULT_KEEP}; 0 turns it off) sets {@code keep}.
 */
final class ListedNames implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ListedNames.class);
  static final String KEEP_PROPERTY = "io.ossgw.fuse.readdirplus_keep";
  static final String INVALIDATORS_PROPERTY = "io.ossgw.fuse.readdirplus_invalidators";
  /**
   * Invalidating threads per mount: with 8 a default-mode {@code ls} of 300,000 entries left no name behind, with 4
   * 36,000, with 1 105,000 (keep 10,000; docs/benchmarks.md "Listed names dropped by several threads"); twice the
   * least that kept up.
   */
  static final int DEFAULT_INVALIDATORS = 16;
  /**
   * At most 62,500 names remembered (keep and a burst of 12,500): about 11 MB of libfuse nodes and 4 MB of this queue
   * on the heap, against 170 and 0 for 1,000,000 names without a bound.
   */
  static final int DEFAULT_KEEP = 50_000;
  private static final int ENOENT = 2;
  private static final long DH_FUSE = 40;
  private static final long DH_FH = 96;
  private static final long DH_NODEID = 112;

  private record Listed(long parent, byte[] name) { }

  private final int keep;
  /** Threads invalidating at once ({@link #INVALIDATORS_PROPERTY}). */
  private final int invalidators;
  /**
   * Names due in one go, once {@code keep + burst} are remembered: a quarter of {@code keep}, at most 16,384; the
   * threads then drain the queue down to {@code keep}, each taking {@code burst / invalidators} names at a time.
   * Each invalidated name costs the kernel a FORGET, and each queued FORGET wakes a libfuse worker; in bursts the
   * workers find many queued and take them in one BATCH_FORGET (a cold {@code ls -l} of 1,000,000 entries: 31 CPU-s
   * with bursts of 16,384 against 39 with a name at a time, docs/benchmarks.md "Big directories").
   */
  private final int burst;
  /**
   * The most names remembered: four times {@code keep} (about 11 MB of heap at the default keep), room for the
   * invalidations to fall behind a listing and catch up after it.
   */
  private final int limit;
  private boolean warnedFull;
  private final MethodHandle getContext;
  private final MethodHandle getSession;
  private final MethodHandle invalEntry;
  private final MethodHandle fillerBuf;
  private final FuseStats stats;
  private final ArrayDeque<Listed> queue = new ArrayDeque<>();
  private volatile boolean enabled;
  private volatile MemorySegment session = MemorySegment.NULL;
  /** The invalidating threads, started when the first burst is due; null before. */
  private Thread[] workers;
  /** Set once {@code keep} and a burst more are remembered, cleared when the workers have drained the queue to keep. */
  private boolean draining;
  private boolean closed;

  private ListedNames(int keep, int invalidators, MethodHandle getContext, MethodHandle getSession,
      MethodHandle invalEntry, MethodHandle fillerBuf, FuseStats stats) {
    this.keep = keep;
    this.invalidators = invalidators;
    this.burst = Math.max(1, Math.min(keep / 4, 16_384));
    this.limit = 4 * keep;
    this.getContext = getContext;
    this.getSession = getSession;
    this.invalEntry = invalEntry;
    this.fillerBuf = fillerBuf;
    this.stats = stats;
    this.enabled = keep > 0;
  }

  /**
   * Sets up trimming for one mount: {@code keep} from {@link #KEEP_PROPERTY}, the libfuse functions from {@code
   * library}. Turned off (never failing the mount) when the property is 0 or a symbol or jfuse's filler is missing.
   *
   * @param library libfuse3.so.3
   * @param getContext {@code fuse_get_context}
   * @param stats where invalidated names are counted
   */
  static ListedNames create(Path library, MethodHandle getContext, FuseStats stats) {
    int keep = count(KEEP_PROPERTY, System.getProperty(KEEP_PROPERTY), DEFAULT_KEEP, 0);
    int invalidators = count(INVALIDATORS_PROPERTY, System.getProperty(INVALIDATORS_PROPERTY), DEFAULT_INVALIDATORS, 1);
    if (keep <= 0) {
      return new ListedNames(0, 1, null, null, null, null, stats);
    }
    try {
      SymbolLookup lib = SymbolLookup.libraryLookup(library, Arena.global());
      Linker l = Linker.nativeLinker();
      MethodHandle session = l.downcallHandle(lib.find("fuse_get_session").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
      MethodHandle inval = l.downcallHandle(lib.find("fuse_lowlevel_notify_inval_entry").orElseThrow(),
          FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
              ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
      Method buf = Class.forName("org.cryptomator.jfuse.linux.amd64.DirFillerImpl").getDeclaredMethod("buf");
      buf.setAccessible(true);
      MethodHandle fillerBuf = MethodHandles.lookup().unreflect(buf)
          .asType(java.lang.invoke.MethodType.methodType(MemorySegment.class, DirFiller.class));
      return new ListedNames(keep, invalidators, getContext, session, inval, fillerBuf, stats);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.info("not bounding the names the kernel keeps from listings ({}): {}", KEEP_PROPERTY, e.toString());
      return new ListedNames(0, 1, null, null, null, null, stats);
    }
  }

  /**
   * A count from a system property's value.
   *
   * @param property the property's name, for the error
   * @param value null or blank (giving {@code dflt}) or a count
   * @param dflt the default
   * @param min the least count taken ({@link #KEEP_PROPERTY}: 0 for off; {@link #INVALIDATORS_PROPERTY}: 1)
   * @throws IllegalArgumentException naming the property and the value if {@code value} is not a count >= {@code min}
   */
  static int count(String property, String value, int dflt, int min) {
    if (value == null || value.isBlank()) {
      return dflt;
    }
    try {
      int k = Integer.parseInt(value.trim());
      if (k >= min) {
        return k;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("-D" + property + " must be a count >= " + min
        + (min == 0 ? " (0 = off)" : "") + ": " + value);
  }

  /**
   * The libfuse node id of the directory a READDIRPLUS callback lists, or 0 when trimming is off or the {@code struct
   * fuse_dh} behind {@code filler} does not read as expected (which turns trimming off).
   *
   * @param path the directory's path ("/" for the root, node 1)
   * @param filler the callback's filler (jfuse's {@code DirFillerImpl}, whose {@code buf} is libfuse's dir handle)
   * @param fh the callback's {@code fi->fh}
   */
  long directory(String path, DirFiller filler, long fh) {
    if (!enabled) {
      return 0;
    }
    try {
      MemorySegment dh = NativeMemory.at((MemorySegment) fillerBuf.invokeExact(filler), DH_NODEID + 8);
      MemorySegment ctx = NativeMemory.at((MemorySegment) getContext.invokeExact(), 8);
      long fuse = ctx.get(ValueLayout.JAVA_LONG, 0);
      long node = dh.get(ValueLayout.JAVA_LONG, DH_NODEID);
      if (fuse == 0 || dh.get(ValueLayout.JAVA_LONG, DH_FUSE) != fuse || dh.get(ValueLayout.JAVA_LONG, DH_FH) != fh
          || node <= 0 || ("/".equals(path) && node != 1)) {
        disable("libfuse's struct fuse_dh does not have the 3.x layout this reads (node " + node + " for " + path + ")");
        return 0;
      }
      if (session.equals(MemorySegment.NULL)) {
        session = (MemorySegment) getSession.invokeExact(MemorySegment.ofAddress(fuse));
      }
      return node;
    } catch (Throwable t) {
      disable(t.toString());
      return 0;
    }
  }

  /**
   * Remembers that a READDIRPLUS reply gave the kernel {@code name} in directory node {@code parent}; wakes the
   * invalidating threads once {@code keep} and a burst more are remembered. Never blocks (FUSE worker threads call it).
   */
  void listed(long parent, String name) {
    if (parent == 0 || !enabled) {
      return;
    }
    Listed l = new Listed(parent, name.getBytes(StandardCharsets.UTF_8));
    synchronized (queue) {
      if (closed) {
        return;
      }
      if (queue.size() >= limit) {
        stats.namesNotTracked(1);
        if (!warnedFull) {
          warnedFull = true;
          LOG.warn("the kernel is given listed names faster than it drops them (a listing in progress holds its "
              + "directory's lock); names past {} are left to the kernel's own reclaim", limit);
        }
        return;
      }
      queue.addLast(l);
      // the threads are woken when a drain starts: a thread waits only after clearing `draining`, so while it is set
      // they are all at work
      if (queue.size() >= keep + burst && !draining) {
        draining = true;
        if (workers == null) {
          workers = new Thread[invalidators];
          for (int i = 0; i < invalidators; i++) {
            workers[i] = Thread.ofPlatform().daemon().name("fuse-listed-names-" + i).start(this::run);
          }
        } else {
          queue.notifyAll();
        }
      }
    }
  }

  private void run() {
    int share = Math.max(1, burst / invalidators);
    Listed[] batch = new Listed[share];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment name = arena.allocate(4096);
      while (true) {
        int n = 0;
        synchronized (queue) {
          while (!closed && !(draining && queue.size() > keep)) {
            draining = false;
            queue.wait();
          }
          if (closed) {
            return;
          }
          while (n < share && queue.size() > keep) {
            batch[n++] = queue.pollFirst();
          }
        }
        int done = 0;
        for (int i = 0; i < n; i++) {
          Listed l = batch[i];
          batch[i] = null;
          byte[] b = l.name();
          if (b.length >= name.byteSize()) {
            continue;
          }
          MemorySegment.copy(b, 0, name, ValueLayout.JAVA_BYTE, 0, b.length);
          name.set(ValueLayout.JAVA_BYTE, b.length, (byte) 0);
          int rc = (int) invalEntry.invokeExact(session, l.parent(), name, (long) b.length);
          if (rc == 0) {
            done++;
          } else if (rc != -ENOENT) { // ENOENT: the kernel had already dropped it
            disable("fuse_lowlevel_notify_inval_entry answered " + rc);
            return;
          }
        }
        stats.namesInvalidated(done);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      disable(t.toString());
    }
  }

  private void disable(String why) {
    if (enabled) {
      enabled = false;
      LOG.warn("not bounding the names the kernel keeps from listings any more ({}): {}", KEEP_PROPERTY, why);
    }
    synchronized (queue) {
      queue.clear();
    }
  }

  /**
   * Trimming for a test: {@code invalEntry} takes the place of {@code fuse_lowlevel_notify_inval_entry} (same shape:
   * session, parent node id, name, name length; returns 0 or a negative errno), directories are given by node id,
   * {@code invalidators} threads invalidate.
   */
  static ListedNames forTest(int keep, int invalidators, MethodHandle invalEntry, FuseStats stats) {
    return new ListedNames(keep, invalidators, null, null, invalEntry, null, stats);
  }

  /** How many names are remembered now (waiting to be invalidated or kept). */
  int remembered() {
    synchronized (queue) {
      return queue.size();
    }
  }

  /**
   * Stops the invalidating threads and waits for them; call before libfuse's session is destroyed (they write to
   * it). Logs how many names were invalidated and how many left to the kernel's reclaim, once any were due.
   */
  @Override
  public void close() {
    Thread[] ts;
    synchronized (queue) {
      closed = true;
      queue.clear();
      queue.notifyAll();
      ts = workers;
    }
    if (ts != null) {
      LOG.info("listed names: {} invalidated, {} left to the kernel's reclaim", stats.namesInvalidated(),
          stats.namesNotTracked());
    }
    // one deadline for all of them: after the kernel's unmount a notification fails at once (ENODEV); an
    // invalidation waits at most for one getdents of the directory to finish
    long deadline = System.nanoTime() + 30_000_000_000L;
    for (Thread t : ts == null ? new Thread[0] : ts) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        LOG.warn("{} did not stop within 30 s", t.getName());
      }
    }
  }
}
