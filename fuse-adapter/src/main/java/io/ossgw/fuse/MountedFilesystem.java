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

  private static final long LAZY_GRACE_NANOS = 200_000_000L;

  private final Path mountpoint;
  private volatile FuseFilesystem fs; // set once by FuseMounter before the session starts
  private final FuseOptions options;
  private final String binding;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Object closeLock = new Object();
  private volatile int mountId = -1;
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

  /** The kernel's mount id (first field of /proc/self/mountinfo). */
  public int mountId() {
    return mountId;
  }

  /** Files currently open through the mount. */
  public int openFiles() {
    return fs.openFiles();
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
   * Unmounts and waits, up to {@link FuseOptions#unmountTimeout()}, until the mount is gone from the mount table and
   * the libfuse loop has returned. Idempotent; safe to call from several threads and from a shutdown hook. If files
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
      boolean lazy = mountId >= 0 && Unmounter.unmount(mountpoint.toString(), mountId, options.unmountTimeout());
      try {
        // After a clean unmount the loop returns within milliseconds; after a lazy one it serves the open files
        // until they are closed, which is not worth waiting for here.
        long left = lazy ? LAZY_GRACE_NANOS : Math.max(1, deadline - System.nanoTime());
        if (!awaitUnmounted(Duration.ofNanos(left))) {
          LOG.info("{} is detached; its FUSE session still serves {} open file(s) until they are closed",
              mountpoint, fs.openFiles());
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
    return "MountedFilesystem[" + mountpoint + ", " + binding + ", mountId=" + mountId + ", "
        + (isMounted() ? "mounted" : "unmounted") + "]";
  }

  // --- lifecycle, driven by FuseMounter ---

  void mounted(int id) {
    mountId = id;
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

  /** The session ended (the loop returned with {@code status}): release leftovers and clear a dead mount. */
  void ended(int status) {
    try {
      fs.releaseAll();
      int id = mountId;
      if (id >= 0 && Unmounter.isMounted(id, mountpoint.toString())) {
        // The loop returned but the kernel mount is still there (the session failed): don't leave a dead mount.
        LOG.warn("FUSE session at {} ended with status {} while still mounted; detaching it", mountpoint, status);
        Unmounter.run(List.of("fusermount", "-u", "-z", mountpoint.toString()), options.unmountTimeout());
        if (Unmounter.isMounted(id, mountpoint.toString())) {
          Unmounter.run(List.of("umount", "-l", mountpoint.toString()), options.unmountTimeout());
        }
      }
    } catch (Throwable t) {
      LOG.warn("cleaning up after the FUSE session at {} failed", mountpoint, t);
    } finally {
      FuseMounter.forget(this); // before completing: whoever awaited the end must not still find it in mounts()
      exit.complete(status);
    }
  }
}
