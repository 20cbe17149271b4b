package io.ossgw.fuse;

import io.ossgw.testsupport.Slowdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs shell tools against a mount, the way a user would. */
final class Sh {
  record Result(int code, String out, String err) {
    Result ok() {
      if (code != 0) {
        throw new AssertionError("exit " + code + ": " + err + out);
      }
      return this;
    }
  }

  private Sh() {}

  /** Runs {@code sh -c script}; 60 s at most. */
  static Result sh(String script) {
    return run(List.of("sh", "-c", script));
  }

  static Result run(List<String> cmd) {
    try {
      Path out = Files.createTempFile("sh", ".out");
      Path err = Files.createTempFile("sh", ".err");
      try {
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        if (!p.waitFor(Slowdown.scaledMillis(60_000), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly();
          throw new AssertionError("timed out: " + cmd);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Single-quotes a path for sh. */
  static String q(Path p) {
    return "'" + p.toString().replace("'", "'\\''") + "'";
  }
}
