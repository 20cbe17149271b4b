package io.ossgw.fuse;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live FUSE mount made by {@link FuseMounter#mount}. It is served by one platform thread running the binding's
 * libfuse loop (which serves every request itself with {@code singleThreaded}, or dispatches to libfuse's worker
 * threads otherwise) until the filesystem is unmounted, by {@link #close()} or from outside ({@code fusermount -u}).
 *
 * <p>The VFS is not closed here: it belongs to the caller, who should close it after this.
 */
public final class MountedFilesystem implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MountedFilesystem.class);

  /**
   * How long {@link #close()} waits for the libfuse loop after the mount has left the mount table when there is nothing
   * left to serve here (a lazy unmount with open files, or no open files at all): after a clean unmount the loop
   * returns within milliseconds, unless the superblock lives on elsewhere (a copy of the mount in another mount
   * namespace keeps the connection open), which no amount of waiting here changes.
   */
  static final long GRACE_NANOS = 200_000_000L;

  private final Path mountpoint;
  private volatile FuseFilesystem fs; // set once by FuseMounter before the session starts
  private final FuseOptions options;
  private final String binding;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Object closeLock = new Object();
  private volatile MountIdentity identity; // set once the mount is live; null if it ended before
  private volatile boolean abandoned;
  private boolean closed;

  MountedFilesystem(Path mountpoint, FuseOptions options, String binding) {
    this.mountpoint = mountpoint;
    this.options = options;
    this.binding = binding;
  }

  /** The mount point, absolute, as the kernel lists it in /proc/self/mountinfo. */
  public Path mountpoint() {
    return mountpoint;
  }

  /** Per-operation callback counters of this mount. */
  public FuseStats stats() {
    return fs.stats();
  }

  /** The options it was mounted with. */
  public FuseOptions options() {
    return options;
  }

  /** The binding serving it, e.g. {@code "jnr-fuse 0.5.8 (libfuse2)"}. */
  public String binding() {
    return binding;
  }

  /** The kernel's mount id (first field of /proc/self/mountinfo), or -1 if the mount ended before it was seen. */
  public int mountId() {
    MountIdentity id = identity;
    return id == null ? -1 : id.mountId();
  }

  /** Which kernel mount this is (id, device, path), or null if it ended before it was seen. */
  public MountIdentity identity() {
    return identity;
  }

  /** Files currently open through the mount. */
  public int openFiles() {
    return fs.openFiles();
  }

  /** Unlinked open files whose hidden name libfuse still holds (in memory only; see {@code HiddenNames}). */
  public int hiddenFiles() {
    return fs.hiddenFiles();
  }

  /** True while the FUSE session is serving (the libfuse loop has not returned). */
  public boolean isMounted() {
    return !exit.isDone();
  }

  /** Blocks until the FUSE session has ended (unmounted by {@link #close()} or from outside). */
  public void awaitUnmounted() throws InterruptedException {
    try {
      exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e); // never completed exceptionally
    }
  }

  /** Waits up to {@code timeout} for the session to end; true if it has. */
  public boolean awaitUnmounted(Duration timeout) throws InterruptedException {
    try {
      exit.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Unmounts this mount (never another one made later at the same path: see {@link MountIdentity}) and waits until it
   * is gone from the mount table, then gives the libfuse loop a short grace ({@link #GRACE_NANOS}) to return. Only
   * while files are open through a mount that was unmounted cleanly does it wait longer for the loop, up to {@link
   * FuseOptions#unmountTimeout()}. Idempotent; safe to call from several threads and from a shutdown hook. If files
   * are still open, the clean unmount fails with EBUSY and a lazy one detaches the mount instead; the loop then keeps
   * serving those files until they are closed, and this method returns without waiting for that.
   *
   * @throws MountException if the mount could not be removed
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      if (closed) {
        return;
      }
      long deadline = System.nanoTime() + options.unmountTimeout().toNanos();
      MountIdentity id = identity;
      // Once our session has ended, ended() has cleared our mount if it was left dead; whatever carries our numbers
      // now is a newer mount. While it runs, our superblock holds the device number, so the identity is unique.
      boolean lazy = id != null && !exit.isDone() && Unmounter.unmount(id, options.unmountTimeout());
      try {
        int open = fs.openFiles();
        long left = lazy || open == 0 ? GRACE_NANOS : Math.max(1, deadline - System.nanoTime());
        if (!awaitUnmounted(Duration.ofNanos(left))) {
          if (open > 0) {
            LOG.info("{} is detached; its FUSE session still serves {} open file(s) until they are closed",
                mountpoint, open);
          } else {
            LOG.info("{} is unmounted; its FUSE session has not ended yet (a copy of the mount in another mount"
                + " namespace keeps it open) and is not waited for", mountpoint);
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      closed = true;
      FuseMounter.forget(this);
    }
  }

  @Override
  public String toString() {
    return "MountedFilesystem[" + mountpoint + ", " + binding + ", " + identity + ", "
        + (isMounted() ? "mounted" : "unmounted") + "]";
  }

  // --- lifecycle, driven by FuseMounter ---

  void mounted(MountIdentity id) {
    identity = id;
  }

  FuseFilesystem filesystem() {
    return fs;
  }

  void filesystem(FuseFilesystem f) {
    fs = f;
  }

  /** {@link FuseMounter#mount} gave up on this session; if it comes up late anyway, it detaches itself. */
  void abandon() {
    abandoned = true;
  }

  /** The session answered INIT (called on the FUSE thread, so the unmount runs elsewhere). */
  void initialized() {
    if (abandoned) {
      Thread.ofVirtual().name("ossgw-fuse-abandon").start(() -> {
        LOG.warn("the FUSE mount at {} came up after mounting was abandoned; detaching it", mountpoint);
        Unmounter.run(List.of("fusermount", "-u", "-z", mountpoint.toString()), options.unmountTimeout());
      });
    }
  }

  CompletableFuture<Integer> exit() {
    return exit;
  }

  /**
   * The session ended (the loop returned with {@code status}): clear our mount if it was left dead, then release
   * leftovers. libfuse itself unmounts when its loop ends while the connection is alive; this covers the case where
   * that did not work.
   */
  void ended(int status) {
    try {
      MountIdentity id = identity;
      if (id != null) {
        StaleMounts.Status now = StaleMounts.check(mountpoint);
        if (mayDetachAfterEnd(id, now)) {
          LOG.warn("FUSE session at {} ended with status {} while still mounted ({}); detaching it", mountpoint,
              status, id);
          Unmounter.run(List.of("fusermount", "-u", "-z", mountpoint.toString()), options.unmountTimeout());
          if (id.isTopmostIn(MountInfo.read())) {
            Unmounter.run(List.of("umount", "-l", mountpoint.toString()), options.unmountTimeout());
          }
        } else if (id.matches(now.entry())) {
          LOG.info("the mount at {} has this ended session's mount id and device ({}) but answers, so it is a newer"
              + " mount that reuses both numbers; leaving it alone", mountpoint, id);
        }
      }
      fs.releaseAll();
    } catch (Throwable t) {
      LOG.warn("cleaning up after the FUSE session at {} failed", mountpoint, t);
    } finally {
      FuseMounter.forget(this); // before completing: whoever awaited the end must not still find it in mounts()
      exit.complete(status);
    }
  }

  /**
   * Whether a session that has ended may detach what is at its mount point now: only its own mount (same id, device
   * and path, topmost), and only if that does not answer. Our session is over, so our mount, if it is still there,
   * is dead or hung; a mount that answers is served by someone else, even if the kernel gave it our freed id and
   * device number (issue 9 item 1).
   */
  static boolean mayDetachAfterEnd(MountIdentity id, StaleMounts.Status now) {
    return id.matches(now.entry()) && now.state() != StaleMounts.State.LIVE;
  }
}
