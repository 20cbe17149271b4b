package io.ossgw.app.mount;

import io.ossgw.fuse.MountInfo;
import io.ossgw.fuse.StaleMounts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code ossgw umount}: asks the kernel to unmount a FUSE mount the way users would, {@code fusermount -u}, and falls
 * back to a lazy {@code umount -l} (root only), which also clears a dead mount whose process was killed. Then, for a
 * mount made by {@code ossgw mount} ({@link MountRecord}), it waits for the mount's process to exit: files closed just
 * before the unmount are uploaded by that process after {@code close(2)} returned (their last close), so the data is
 * only in OSS once it has exited.
 */
public final class Unmounter {
  /** The outcome: exit code (0, 1 failed, 3 still uploading) and the message for stderr (may be a note with 0). */
  public record Result(int exitCode, String message) {}

  /** {@link Result#exitCode()} when the process of the mount is still uploading after the wait. */
  public static final int STILL_UPLOADING = 3;

  private Unmounter() {}

  /**
   * Unmounts {@code mountpoint} and waits up to {@code wait} for the process that served it to exit.
   *
   * @return exit code 0 (unmounted; the process has exited or holds no file to upload), 1 (could not unmount) or
   *     {@link #STILL_UPLOADING} (unmounted, but its process still holds files to upload: the message names it)
   */
  public static Result unmount(Path mountpoint, Duration wait) throws IOException, InterruptedException {
    String mp = StaleMounts.mountTableKey(mountpoint);
    Optional<MountRecord> owner = MountInfo.find(MountInfo.read(), mp)
        .flatMap(e -> MountRecord.find(MountRecord.runtimeDir(), e));
    StringBuilder errors = new StringBuilder();
    boolean unmounted = false;
    for (List<String> cmd : List.of(List.of("fusermount", "-u", mp), List.of("umount", "-l", mp))) {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
      Process p;
      try {
        p = pb.start();
      } catch (IOException e) {
        errors.append(cmd.getFirst()).append(": not installed; ");
        continue;
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        errors.append(cmd.getFirst()).append(": timed out; ");
        continue;
      }
      if (p.exitValue() == 0) {
        unmounted = true;
        break;
      }
      errors.append(out.isEmpty() ? cmd.getFirst() + " exited with " + p.exitValue() : out).append("; ");
    }
    if (!unmounted) {
      String msg = errors.toString();
      return new Result(1, "cannot unmount " + mp + ": " + msg.substring(0, Math.max(0, msg.length() - 2)));
    }
    return owner.map(r -> awaitProcess(r, wait)).orElse(new Result(0, ""));
  }

  /** Waits for the mount's process to exit; if it does not, says what it still holds. */
  static Result awaitProcess(MountRecord r, Duration wait) {
    Optional<ProcessHandle> ph = r.process();
    if (ph.isEmpty() || exited(ph.get(), wait)) {
      return new Result(0, "");
    }
    int staged = stagedFiles(r.pid());
    String mp = r.identity().mountPoint();
    String log = r.log() == null ? "" : "; its log: " + r.log();
    if (staged == 0) {
      return new Result(0, "note: " + mp + " is unmounted; its ossgw process " + r.pid() + " is still running after "
          + wait.toSeconds() + " s but holds no file to upload" + log);
    }
    return new Result(STILL_UPLOADING, mp + " is unmounted, but its ossgw process " + r.pid() + " is still uploading "
        + staged + " file(s) after " + wait.toSeconds() + " s (files closed before the unmount, or still open through"
        + " a lazily detached mount)" + log + ". Their changes are in OSS only once it exits; wait for it with:"
        + " tail --pid=" + r.pid() + " -f /dev/null");
  }

  /** Polls (the process is not our child, so there is no exit notification) until it is gone or the wait is over. */
  private static boolean exited(ProcessHandle ph, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    while (ph.isAlive()) {
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !ph.isAlive();
      }
    }
    return true;
  }

  /**
   * Files of process {@code pid} with a write staging: its open spool files (created and unlinked at once, so they
   * show as {@code .../ossgw-spool-*.tmp (deleted)} in {@code /proc/PID/fd}). A file keeps its spool until its last
   * close has uploaded it. 0 if unreadable.
   */
  static int stagedFiles(long pid) {
    int n = 0;
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.contains("/ossgw-spool-") && target.endsWith(" (deleted)")) {
            n++;
          }
        } catch (IOException ignored) {
          // closed meanwhile
        }
      }
    } catch (IOException e) {
      return 0;
    }
    return n;
  }
}
