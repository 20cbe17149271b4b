package io.ossgw.fuse;

import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mounts a {@link VirtualFileSystem} with FUSE.
 *
 * <pre>{@code
 * try (MountedFilesystem m = FuseMounter.mount(vfs, Path.of("/mnt/oss"), FuseOptions.builder().fsname("oss:b").build())) {
 *   m.awaitUnmounted();   // or serve until shutdown
 * }
 * }</pre>
 *
 * <p>{@link #mount} returns once the kernel mount is live: the new entry is in {@code /proc/self/mountinfo} and the
 * kernel's INIT request has been answered (polled, not a fixed sleep). Every mount is also unmounted by a JVM shutdown
 * hook (SIGTERM, SIGINT, normal exit); applications should still {@link MountedFilesystem#close()} explicitly before
 * closing the VFS, because shutdown hooks run in no particular order. After SIGKILL nothing runs: the mount is left
 * dead and the next {@link #mount} at that path says how to clear it.
 */
public final class FuseMounter {
  private static final Logger LOG = LoggerFactory.getLogger(FuseMounter.class);
  private static final Set<MountedFilesystem> LIVE = ConcurrentHashMap.newKeySet();
  private static final AtomicBoolean HOOK = new AtomicBoolean();

  private FuseMounter() {}

  /**
   * Mounts with the configured binding ({@link FuseBindings#configured()}: jfuse/libfuse 3 where it loads, else
   * jnr-fuse/libfuse 2; {@code -Dio.ossgw.fuse.binding=jnr|jfuse} forces one). See {@link
   * #mount(VirtualFileSystem, Path, FuseOptions, FuseBinding)}.
   */
  public static MountedFilesystem mount(VirtualFileSystem vfs, Path mountpoint, FuseOptions options) {
    return mount(vfs, mountpoint, options, FuseBindings.configured());
  }

  /**
   * Mounts {@code vfs} at {@code mountpoint} and returns once the mount is live.
   *
   * @param vfs the filesystem to serve; not closed by the mount
   * @param mountpoint an existing, empty directory (non-empty with {@link FuseOptions#nonempty()})
   * @param options mount options
   * @param binding the native binding
   * @throws MountException if the mount point is missing, not a directory, not empty, already a mount (live or dead:
   *     the message has the command that clears it), libfuse2 is missing ("apt-get install libfuse2 fuse"), libfuse
   *     refused the options, or the mount did not become live within {@link FuseOptions#mountTimeout()} of the
   *     binding's call into libfuse ({@link FuseFilesystem#mounting()})
   */
  public static MountedFilesystem mount(VirtualFileSystem vfs, Path mountpoint, FuseOptions options, FuseBinding binding) {
    Objects.requireNonNull(vfs, "vfs");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(binding, "binding");
    StaleMounts.Status status = StaleMounts.check(mountpoint);
    if (status.state() != StaleMounts.State.NOT_MOUNTED) {
      throw new MountException(status.message());
    }
    Path mp = Path.of(status.mountpoint());
    checkDirectory(mp, options.nonempty());
    binding.load();

    // Mount ids are reused as soon as a mount goes away (other processes mount and unmount all the time), so the new
    // mount is recognised by path: whatever is listed at this path now is not ours.
    Set<Integer> before = new HashSet<>();
    MountInfo.read().stream().filter(e -> e.mountPoint().equals(mp.toString())).forEach(e -> before.add(e.mountId()));
    MountedFilesystem m = new MountedFilesystem(mp, options, binding.name());
    FuseFilesystem fs = new FuseFilesystem(vfs, options, m::initialized);
    m.filesystem(fs);
    Thread server = new Thread(() -> serve(binding, m, options), "ossgw-fuse " + mp);
    server.setDaemon(true); // a stuck session must not keep the JVM from exiting
    server.start();
    try {
      m.mounted(awaitLive(m, mp, before, options));
      LIVE.add(m);
      installHook();
      LOG.info("mounted {} at {} ({}, {})", options.fsname(), mp, binding.name(),
          options.singleThreaded() ? "single-threaded" : "multithreaded");
      return m;
    } catch (RuntimeException e) {
      abandon(m, mp, before, options);
      throw e;
    }
  }

  /** The mounts made by this JVM that are still live. */
  public static List<MountedFilesystem> mounts() {
    return LIVE.stream().sorted(Comparator.comparing(MountedFilesystem::mountpoint)).toList();
  }

  static void forget(MountedFilesystem m) {
    LIVE.remove(m);
  }

  private static void serve(FuseBinding binding, MountedFilesystem m, FuseOptions options) {
    int status = -1;
    try {
      status = binding.run(m.filesystem(), m.mountpoint(), options);
    } catch (Throwable t) {
      LOG.error("FUSE session at {} failed", m.mountpoint(), t);
    } finally {
      m.ended(status);
    }
  }

  /**
   * How long a binding may take to prepare before it asks libfuse to mount ({@link FuseFilesystem#mounting()}): JVM
   * work only (loading, linking the native upcalls), which a busy machine slows down but nothing in the kernel can
   * hang; {@link FuseOptions#mountTimeout()} counts from the call into libfuse.
   */
  static final long PREPARE_NANOS = 120_000_000_000L;

  /** The new mount's identity, or null if it was live and has already been unmounted from outside. */
  private static MountIdentity awaitLive(MountedFilesystem m, Path mp, Set<Integer> before, FuseOptions options) {
    long start = System.nanoTime();
    long sleepMs = 1;
    while (true) {
      if (m.exit().isDone()) {
        if (m.exit().join() == 0) {
          // Both bindings end with 0 only after libfuse mounted and its loop ended normally: someone (fusermount -u)
          // unmounted it before this loop looked again, on a busy machine even before the kernel's INIT was served.
          // That is a mount that has already ended cleanly, not a failure.
          return null;
        }
        throw new MountException("libfuse could not mount " + mp + " (exit status " + m.exit().join()
            + "); libfuse printed the reason to stderr (e.g. an unknown -o option, or fusermount missing:"
            + " apt-get install libfuse2 fuse)");
      }
      Optional<MountInfo.Entry> entry = newMount(mp, before);
      try {
        if (entry.isPresent() && m.filesystem().awaitInit(0)) {
          return MountIdentity.of(entry.get());
        }
        long mounting = m.filesystem().mountingSince();
        long now = System.nanoTime();
        if (mounting == 0 ? now - start >= PREPARE_NANOS : now - mounting >= options.mountTimeout().toNanos()) {
          throw new MountException("the FUSE mount at " + mp + " did not become live within "
              + (mounting == 0 ? PREPARE_NANOS / 1_000_000 + " ms (the binding did not ask libfuse to mount)"
              : options.mountTimeout().toMillis() + " ms (" + (entry.isPresent() ? "mounted, but the kernel's INIT"
              + " was not answered" : "no entry in " + MountInfo.PROC_SELF_MOUNTINFO) + ")"));
        }
        Thread.sleep(sleepMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MountException("interrupted while mounting " + mp, e);
      }
      sleepMs = Math.min(sleepMs * 2, 20);
    }
  }

  private static Optional<MountInfo.Entry> newMount(Path mp, Set<Integer> before) {
    String key = mp.toString();
    return MountInfo.read().stream()
        .filter(e -> e.mountPoint().equals(key) && !before.contains(e.mountId()))
        .reduce((a, b) -> b);
  }

  /**
   * Mounting failed or timed out: make sure nothing is left behind, now or later. A session that is still starting
   * is told to detach itself if its INIT arrives after all (see {@link MountedFilesystem#abandon}).
   */
  private static void abandon(MountedFilesystem m, Path mp, Set<Integer> before, FuseOptions options) {
    m.abandon();
    newMount(mp, before).ifPresent(e -> {
      try {
        Unmounter.unmount(MountIdentity.of(e), options.unmountTimeout());
      } catch (RuntimeException ex) {
        LOG.warn("could not remove the half-made mount at {}", mp, ex);
      }
    });
  }

  private static void checkDirectory(Path mp, boolean nonempty) {
    String q = StaleMounts.shellQuote(mp.toString());
    if (!Files.exists(mp)) {
      throw new MountException("mount point " + mp + " does not exist; create it first: mkdir -p " + q);
    }
    if (!Files.isDirectory(mp)) {
      throw new MountException("mount point " + mp + " is not a directory");
    }
    if (nonempty) {
      return;
    }
    try (DirectoryStream<Path> d = Files.newDirectoryStream(mp)) {
      for (Path p : d) {
        throw new MountException("mount point " + mp + " is not empty (it contains '" + p.getFileName()
            + "'); use an empty directory or the nonempty option");
      }
    } catch (IOException e) {
      throw new MountException("cannot read mount point " + mp + ": " + e.getMessage(), e);
    }
  }

  private static void installHook() {
    if (HOOK.compareAndSet(false, true)) {
      Runtime.getRuntime().addShutdownHook(new Thread(FuseMounter::closeAll, "ossgw-fuse-unmount"));
    }
  }

  private static void closeAll() {
    for (MountedFilesystem m : List.copyOf(LIVE)) {
      try {
        m.close();
      } catch (RuntimeException e) {
        LOG.warn("unmounting {} at shutdown failed: {}", m.mountpoint(), e.getMessage());
      }
    }
  }
}
