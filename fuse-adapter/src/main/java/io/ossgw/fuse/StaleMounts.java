package io.ossgw.fuse;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Tells whether a directory is already a mount point and whether that mount is dead, and what command clears it.
 *
 * <p>A FUSE mount whose serving process died (SIGKILL, crash) stays in the mount table; every access to it then fails
 * with ENOTCONN, "Transport endpoint is not connected" (or ECONNABORTED for a request caught by the abort), until someone detaches it with {@code fusermount -u -z} (or,
 * as root, {@code umount -l}). Mounting again on top of it fails, so {@link FuseMounter} checks first.
 *
 * <p>Detection: the mount table comes from {@code /proc/self/mountinfo} (not from {@code stat}, which fails on a dead
 * mount); liveness from a {@code stat} and an {@code opendir} of the mount point (the kernel answers {@code stat} from
 * its cache for {@code attr_timeout} after the server died, {@code opendir} always asks the server), run on a helper
 * thread with a timeout because a mount whose server is alive but stuck blocks them forever.
 */
public final class StaleMounts {
  /** How long a probe {@code stat} may take before the mount counts as {@link State#UNRESPONSIVE}. */
  public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private static final String ENOTCONN_TEXT = "Transport endpoint is not connected";
  /** ECONNABORTED: what a request pending when the connection was aborted (its process died) gets instead. */
  private static final String ECONNABORTED_TEXT = "Software caused connection abort";

  /** What is at a mount point. */
  public enum State {
    /** No mount there. */
    NOT_MOUNTED,
    /** A working mount. */
    LIVE,
    /** A mount whose server is gone: stat fails with ENOTCONN. */
    DEAD,
    /** A mount whose stat did not answer within {@link #PROBE_TIMEOUT}. */
    UNRESPONSIVE
  }

  /**
   * The result of {@link #check}.
   *
   * @param mountpoint the path checked, as it appears in mountinfo
   * @param state what is there
   * @param entry the topmost mount at that path, or null when {@link State#NOT_MOUNTED}
   * @param error the probe's error text, or null
   */
  public record Status(String mountpoint, State state, MountInfo.Entry entry, String error) {
    /** A sentence for logs and exceptions, with the command that clears the mount. Empty when not mounted. */
    public String message() {
      return switch (state) {
        case NOT_MOUNTED -> "";
        case LIVE -> mountpoint + " is already a mount point (" + describe(entry) + "); unmount it first: "
            + unmountCommand(mountpoint, entry, false);
        case DEAD -> mountpoint + " is a dead FUSE mount (" + (error != null ? error : ENOTCONN_TEXT) + "; "
            + describe(entry)
            + "): the process that served it is gone. Clear it with: " + unmountCommand(mountpoint, entry, true)
            + " (as root also: umount -l " + shellQuote(mountpoint) + ")";
        case UNRESPONSIVE -> mountpoint + " is a mount point that does not answer (" + describe(entry)
            + "); its server may be hung. Detach it with: " + unmountCommand(mountpoint, entry, true);
      };
    }

    /** The command that clears this mount ({@code fusermount -u -z} for FUSE, else {@code umount -l}), or null. */
    public String clearCommand() {
      return state == State.NOT_MOUNTED ? null : unmountCommand(mountpoint, entry, true);
    }
  }

  /** Probes a path; returns null when {@code stat} succeeded, else the failure. */
  @FunctionalInterface
  interface Prober {
    IOException probe(Path path);
  }

  private StaleMounts() {}

  /** Checks {@code mountpoint} against the live mount table. */
  public static Status check(Path mountpoint) {
    return check(mountpoint, MountInfo.read(), StaleMounts::statWithTimeout);
  }

  static Status check(Path mountpoint, List<MountInfo.Entry> table, Prober prober) {
    String key = mountTableKey(mountpoint);
    MountInfo.Entry entry = MountInfo.find(table, key).orElse(null);
    if (entry == null) {
      return new Status(key, State.NOT_MOUNTED, null, null);
    }
    IOException failure = prober.probe(mountpoint);
    if (failure == null) {
      return new Status(key, State.LIVE, entry, null);
    }
    String reason = failure instanceof FileSystemException fse && fse.getReason() != null ? fse.getReason() : failure.getMessage();
    if (failure instanceof ProbeTimeout) {
      return new Status(key, State.UNRESPONSIVE, entry, reason);
    }
    if (reason != null && (reason.contains(ENOTCONN_TEXT) || reason.contains(ECONNABORTED_TEXT))) {
      return new Status(key, State.DEAD, entry, reason);
    }
    // A live mount that reports an error for its root (EIO from a failing backend, EACCES) is still a mount.
    return new Status(key, State.LIVE, entry, reason);
  }

  /**
   * The string under which the kernel lists {@code mountpoint}: absolute, normalised, with symlinks in its parent
   * resolved. The mount point itself is not resolved, because resolving a dead mount fails.
   */
  public static String mountTableKey(Path mountpoint) {
    Path abs = mountpoint.toAbsolutePath().normalize();
    Path parent = abs.getParent();
    if (parent == null) {
      return abs.toString();
    }
    try {
      return parent.toRealPath().resolve(abs.getFileName()).toString();
    } catch (IOException e) {
      return abs.toString();
    }
  }

  /** The unmount command line for a mount, lazy ({@code -z}/{@code -l}) or not. */
  static String unmountCommand(String mountpoint, MountInfo.Entry entry, boolean lazy) {
    String q = shellQuote(mountpoint);
    if (entry == null || entry.isFuse()) {
      return lazy ? "fusermount -u -z " + q : "fusermount -u " + q;
    }
    return lazy ? "umount -l " + q : "umount " + q;
  }

  /** Quotes for a POSIX shell when needed: {@code /mnt/a b} becomes {@code '/mnt/a b'}. */
  static String shellQuote(String s) {
    if (s.matches("[A-Za-z0-9_./:@%+=,-]+")) {
      return s;
    }
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static String describe(MountInfo.Entry e) {
    return "source " + e.source() + ", type " + e.fsType() + ", mount id " + e.mountId();
  }

  private static IOException statWithTimeout(Path path) {
    CompletableFuture<IOException> result = new CompletableFuture<>();
    // A platform daemon thread: a stat on a hung FUSE mount blocks in the kernel and would pin a virtual thread's
    // carrier; a daemon thread at least does not keep the JVM alive.
    Thread t = new Thread(() -> {
      try {
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isDirectory()) {
          // The kernel answers stat from its attribute cache (attr_timeout) even after the server died; OPENDIR is
          // always sent to the server, so a dead mount fails here.
          try (DirectoryStream<Path> d = Files.newDirectoryStream(path)) {
            d.iterator(); // opened is enough
          }
        }
        result.complete(null);
      } catch (IOException e) {
        result.complete(e);
      } catch (RuntimeException e) {
        result.complete(new IOException(e));
      }
    }, "ossgw-fuse-probe");
    t.setDaemon(true);
    t.start();
    try {
      return result.get(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return new ProbeTimeout("stat did not return within " + PROBE_TIMEOUT.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ProbeTimeout("interrupted");
    } catch (ExecutionException e) {
      return new IOException(e.getCause());
    }
  }

  /** The probe's stat did not return in time. */
  static final class ProbeTimeout extends IOException {
    ProbeTimeout(String message) {
      super(message);
    }
  }
}
