package io.ossgw.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unmounts a FUSE mount and waits until it has left {@code /proc/self/mountinfo}.
 *
 * <p>Order: {@code fusermount -u} (a clean unmount; fails with EBUSY while a process has a file or its cwd there),
 * then {@code fusermount -u -z} (lazy: detached from the namespace at once, the connection lives on until the last
 * user lets go), then {@code umount -l} (root only; also works where the {@code fuse3} package replaced {@code
 * fusermount}). jnr-fuse's own unmount fires {@code fusermount -u -z} without waiting for anything.
 */
final class Unmounter {
  private static final Logger LOG = LoggerFactory.getLogger(Unmounter.class);

  private Unmounter() {}

  /** True while mount {@code id} is listed (at its mount point, possibly covered by a later mount). */
  static boolean isMounted(MountIdentity id) {
    return id.findIn(MountInfo.read()).isPresent();
  }

  /**
   * Unmounts mount {@code id} and waits until it is gone. Every command acts on whatever is topmost at the path, so
   * each runs only while that is still this mount: a mount made later at the same path is never touched.
   *
   * @return true if only a lazy unmount worked (files were open: the FUSE session goes on serving them)
   * @throws MountException if it is still mounted after every method was tried and {@code timeout} passed, or if
   *     another mount covers it (unmounting the path would remove that one)
   */
  static boolean unmount(MountIdentity id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String mountpoint = id.mountPoint();
    StringBuilder log = new StringBuilder();
    List<List<String>> attempts = List.of(
        List.of("fusermount", "-u", mountpoint),
        List.of("fusermount", "-u", "-z", mountpoint),
        List.of("umount", "-l", mountpoint));
    for (List<String> cmd : attempts) {
      List<MountInfo.Entry> table = MountInfo.read();
      if (id.findIn(table).isEmpty()) {
        return cmd != attempts.get(0); // gone (the previous, lazy attempt took a moment longer)
      }
      if (!id.isTopmostIn(table)) {
        throw new MountException("not unmounting " + mountpoint + ": another mount covers this one (" + id + ")");
      }
      String result = run(cmd, timeout);
      log.append("\n  ").append(String.join(" ", cmd)).append(": ").append(result);
      // A successful unmount removes the entry before the command returns; allow a moment for a racing lazy one.
      if (waitGone(id, Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500)))) {
        LOG.debug("unmounted {} with {}", mountpoint, cmd);
        return cmd != attempts.get(0);
      }
    }
    if (waitGone(id, deadline)) {
      return true;
    }
    throw new MountException("could not unmount " + mountpoint + " within " + timeout.toMillis() + " ms:" + log);
  }

  /** Waits until mount {@code id} is gone or the deadline ({@link System#nanoTime()}) passes; true if gone. */
  static boolean waitGone(MountIdentity id, long deadlineNanos) {
    long sleepMs = 1;
    while (true) {
      if (!isMounted(id)) {
        return true;
      }
      if (System.nanoTime() >= deadlineNanos) {
        return false;
      }
      try {
        Thread.sleep(sleepMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return !isMounted(id);
      }
      sleepMs = Math.min(sleepMs * 2, 20);
    }
  }

  /** Runs a command, returning "exit N" plus its output, or why it could not run. */
  static String run(List<String> cmd, Duration timeout) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getOutputStream().close();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return "timed out";
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return "exit " + p.exitValue() + (out.isEmpty() ? "" : " (" + out + ")");
    } catch (IOException e) {
      return "cannot run: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
