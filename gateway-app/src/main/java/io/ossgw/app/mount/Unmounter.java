package io.ossgw.app.mount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ossgw umount}: asks the kernel to unmount a FUSE mount the way users would, {@code fusermount -u}, and falls
 * back to a lazy {@code umount -l} (root only), which also clears a dead mount whose process was killed.
 */
public final class Unmounter {
  /** The outcome: exit code and what the failing command said. */
  public record Result(int exitCode, String message) {}

  private Unmounter() {}

  /** Unmounts {@code mountpoint}; the mounting process sees the unmount and exits by itself. */
  public static Result unmount(Path mountpoint) throws IOException, InterruptedException {
    String mp = mountpoint.toAbsolutePath().normalize().toString();
    StringBuilder errors = new StringBuilder();
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
        return new Result(0, "");
      }
      errors.append(out.isEmpty() ? cmd.getFirst() + " exited with " + p.exitValue() : out).append("; ");
    }
    String msg = errors.toString();
    return new Result(1, "cannot unmount " + mp + ": " + msg.substring(0, Math.max(0, msg.length() - 2)));
  }
}
