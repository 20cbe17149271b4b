package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.fail;

import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real NFS clients the black-box tests run: libnfs-utils ({@code nfs-ls}, {@code nfs-cp}, {@code nfs-cat}; apt
 * package libnfs-utils) and nfs-rs (PyPI nfs-rs, driven by src/test/python/nfs_rs_driver.py). A missing client is a
 * test failure naming the package, not a skip: CI installs both.
 */
final class ExternalClients {
  static final Path DRIVER = Path.of("src/test/python/nfs_rs_driver.py").toAbsolutePath();

  private ExternalClients() {}

  /** The python that has nfs_rs: $OSSGW_PYTHON, else python3. */
  static String python() {
    String py = System.getenv().getOrDefault("OSSGW_PYTHON", "python3");
    Result r = run(Duration.ofSeconds(30), List.of(py, "-c", "import nfs_rs; print(nfs_rs.__version__)"));
    if (r.exit() != 0) {
      fail("nfs-rs is not importable by " + py + " (pip install nfs-rs==0.8.7, or point OSSGW_PYTHON at a python "
          + "that has it): " + r.stderr());
    }
    return py;
  }

  /** Fails unless libnfs-utils is installed. */
  static void requireLibnfs() {
    for (String tool : List.of("nfs-ls", "nfs-cp", "nfs-cat")) {
      if (run(Duration.ofSeconds(10), List.of("sh", "-c", "command -v " + tool)).exit() != 0) {
        fail(tool + " not found: install the Debian package libnfs-utils");
      }
    }
  }

  /** A finished process. */
  record Result(int exit, String stdout, String stderr) {
    /** The last line of stdout (the driver's JSON). */
    String lastLine() {
      String[] lines = stdout.strip().split("\n");
      return lines[lines.length - 1];
    }
  }

  /** Runs a command to completion, killing it after {@code base} of a quiet machine, scaled with the load. */
  static Result run(Duration base, List<String> cmd) {
    Duration timeout = Slowdown.scaled(base);
    try {
      Path out = Files.createTempFile("nfs-client", ".out");
      Path err = Files.createTempFile("nfs-client", ".err");
      try {
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
          p.destroyForcibly().waitFor();
          fail("timed out after " + timeout + ": " + cmd + "\nstdout: " + Files.readString(out) + "\nstderr: "
              + Files.readString(err));
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Runs and fails the test unless the exit code is 0. */
  static Result ok(Duration timeout, String... cmd) {
    Result r = run(timeout, List.of(cmd));
    if (r.exit() != 0) {
      fail("exit " + r.exit() + ": " + String.join(" ", cmd) + "\nstdout: " + r.stdout() + "\nstderr: " + r.stderr());
    }
    return r;
  }

  /** The driver run as a child process with pipes, for interactive subcommands. */
  static final class Interactive implements AutoCloseable {
    final Process process;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    Interactive(String... args) {
      List<String> cmd = new ArrayList<>(List.of(python(), DRIVER.toString()));
      cmd.addAll(List.of(args));
      try {
        process = new ProcessBuilder(cmd).start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Thread.ofVirtual().start(() -> copy(process.getErrorStream(), err));
    }

    /** Reads stdout up to a line equal to {@code expected}; fails on EOF or after {@code base}, scaled. */
    void await(String expected, Duration base) throws IOException {
      Duration timeout = Slowdown.scaled(base);
      long deadline = System.nanoTime() + timeout.toNanos();
      StringBuilder line = new StringBuilder();
      InputStream in = process.getInputStream();
      while (System.nanoTime() < deadline) {
        int c = in.read();
        if (c < 0) {
          fail("driver ended before '" + expected + "': " + stderr());
        }
        if (c == '\n') {
          if (line.toString().equals(expected)) {
            return;
          }
          line.setLength(0);
        } else {
          line.append((char) c);
        }
      }
      fail("no '" + expected + "' within " + timeout);
    }

    void send(String line) throws IOException {
      process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    }

    int finish(Duration base) throws InterruptedException {
      if (!process.waitFor(Slowdown.scaled(base).toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        fail("driver did not finish: " + stderr());
      }
      return process.exitValue();
    }

    String stderr() {
      synchronized (err) {
        return err.toString(StandardCharsets.UTF_8);
      }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
      try {
        byte[] b = new byte[8192];
        int n;
        while ((n = in.read(b)) > 0) {
          synchronized (out) {
            out.write(b, 0, n);
          }
        }
      } catch (IOException e) {
        // process ended
      }
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }
}
