package io.ossgw.app.mount;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ossgw mount ... -f} as a detached child and waits for its outcome, so that {@code ossgw mount} returns
 * like ossfs does: once the mount is live (exit 0), or with the child's one-line error (exit 1, nothing mounted).
 *
 * <p>The child is this same java with the same JVM options ({@link SelfLauncher}), started through {@code setsid}
 * (own session, no controlling terminal), stdin from /dev/null and stdout/stderr appended to a log file. It reports
 * through a {@link ReadyFile}. If it neither reports nor exits within the timeout it gets SIGTERM (so it unmounts
 * whatever it has mounted) and the parent fails.
 */
public final class Daemonizer {
  /** The outcome for the parent: exit code and, on failure, the message to print. */
  public record Result(int exitCode, String message) {}

  private static final Duration POLL = Duration.ofMillis(50);
  private static final Duration CHILD_EXIT_GRACE = Duration.ofSeconds(20);

  private Daemonizer() {}

  /**
   * @param childArgs the arguments of the foreground child ({@code mount SRC MP -o ... -f}); the ready-file option is
   *     appended here
   * @param logFile where the child's output goes (appended)
   * @param timeout how long to wait for the mount
   */
  public static Result launch(List<String> childArgs, Path logFile, Duration timeout) throws IOException {
    Files.createDirectories(logFile.toAbsolutePath().getParent());
    Path dir = Files.createTempDirectory("ossgw-mount-");
    ReadyFile ready = new ReadyFile(dir.resolve("ready"));
    List<String> args = new ArrayList<>(childArgs);
    args.add("--ready-file");
    args.add(ready.path().toString());
    List<String> cmd = new ArrayList<>(SelfLauncher.setsidPrefix());
    cmd.addAll(SelfLauncher.command(args));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectInput(new File("/dev/null"))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        .redirectErrorStream(true);
    Process p = pb.start();
    // If the parent is interrupted (Ctrl-C) before the outcome is known, the half-started child must not live on.
    Thread abandon = new Thread(() -> {
      if (p.isAlive() && ready.poll().isEmpty()) {
        p.destroy();
      }
      ready.delete();
      try {
        Files.deleteIfExists(dir);
      } catch (IOException ignored) {
        // a leftover empty temp directory is harmless
      }
    }, "ossgw-mount-abandon");
    Runtime.getRuntime().addShutdownHook(abandon);
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        var outcome = ready.poll();
        if (outcome.isPresent()) {
          if (outcome.get().mounted()) {
            return new Result(0, "");
          }
          waitFor(p, CHILD_EXIT_GRACE);
          return new Result(1, outcome.get().message());
        }
        if (!p.isAlive()) {
          var late = ready.poll();
          if (late.isPresent()) {
            return late.get().mounted() ? new Result(0, "") : new Result(1, late.get().message());
          }
          return new Result(1, "the mount process exited with code " + p.exitValue() + " before mounting; "
              + "its log " + logFile + " ends with:\n" + tail(logFile, 8));
        }
        Thread.sleep(POLL);
      }
      p.destroy(); // SIGTERM: the child unmounts whatever it mounted and exits
      if (!waitFor(p, CHILD_EXIT_GRACE)) {
        p.destroyForcibly();
      }
      return new Result(1, "timed out after " + timeout.toSeconds() + " s waiting for the mount; see " + logFile);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroy();
      return new Result(1, "interrupted while waiting for the mount");
    } finally {
      boolean hookRemoved;
      try {
        hookRemoved = Runtime.getRuntime().removeShutdownHook(abandon);
      } catch (IllegalStateException shuttingDown) {
        hookRemoved = false; // the hook runs now and reads the ready file: leave it (it is in a temp dir)
      }
      if (hookRemoved) {
        ready.delete();
        Files.deleteIfExists(dir);
      }
    }
  }

  private static boolean waitFor(Process p, Duration d) throws InterruptedException {
    return p.waitFor(d.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The last {@code n} lines of a file, indented; empty if unreadable. */
  static String tail(Path file, int n) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()).stream()
          .map(l -> "  " + l).toList());
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
