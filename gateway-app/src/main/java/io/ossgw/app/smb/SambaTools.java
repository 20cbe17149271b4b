package io.ossgw.app.smb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds Samba's programs and runs the short-lived ones ({@code smbpasswd}, {@code pdbedit}, {@code useradd}).
 *
 * <p>Debian installs smbd in /usr/sbin (package {@code samba}) and smbpasswd/pdbedit in /usr/bin (package
 * {@code samba-common-bin}, a dependency of {@code samba}); /usr/sbin is not on every PATH, so both are searched.
 */
public final class SambaTools {
  /** What to install, for error messages. */
  public static final String INSTALL_HINT = "install Samba: apt-get install samba (Debian/Ubuntu), dnf install samba "
      + "(Fedora/RHEL)";
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

  /**
   * The variables Samba's programs get from the gateway's environment; nothing else passes, so secrets the gateway
   * reads from its environment ({@code OSS_ACCESS_KEY_SECRET}, as the Helm chart passes it) never reach smbd, where
   * {@code /proc/PID/environ} of a long-lived root process would keep them (issue 9 item 10).
   */
  static final Set<String> PASSED_ENV = Set.of("PATH", "LANG", "LANGUAGE", "TZ");

  private SambaTools() {}

  /**
   * Replaces the environment a process builder inherited with {@link #PASSED_ENV} and the locale variables
   * {@code LC_*} of this process.
   *
   * @return {@code pb}
   */
  public static ProcessBuilder cleanEnvironment(ProcessBuilder pb) {
    var env = pb.environment();
    env.keySet().removeIf(k -> !PASSED_ENV.contains(k) && !k.startsWith("LC_"));
    return pb;
  }

  /**
   * Resolves a program: a value with a '/' is taken as a path, a bare name is looked up in PATH, /usr/sbin, /sbin,
   * /usr/bin and /bin.
   *
   * @return the executable, or empty when there is none
   */
  public static Optional<Path> find(String program) {
    if (program.contains("/")) {
      Path p = Path.of(program).toAbsolutePath();
      return Files.isRegularFile(p) && Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
    }
    Set<String> dirs = new LinkedHashSet<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(":")));
    }
    dirs.addAll(List.of("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/bin", "/bin"));
    for (String d : dirs) {
      if (d.isEmpty()) {
        continue;
      }
      Path p = Path.of(d, program);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /**
   * Like {@link #find} but fails with the package to install.
   *
   * @param setting the configuration key that names it, for the message, or null
   * @throws SmbException naming the program and the package
   */
  public static Path require(String program, String setting) {
    return find(program).orElseThrow(() -> new SmbException("SMB shares need Samba's " + program + ", which was not "
        + "found" + (setting == null ? "" : " (" + setting + "=" + program + "; searched PATH, /usr/sbin, /sbin)")
        + ": " + INSTALL_HINT));
  }

  /** The exit code and the combined stdout/stderr of a command. */
  public record Result(int exit, String output) {
    public boolean ok() {
      return exit == 0;
    }
  }

  /**
   * Runs a command to completion.
   *
   * @param command program and arguments (never secrets: those go through {@code stdin})
   * @param stdin bytes to write to its standard input, or null
   * @throws SmbException if it cannot be started or does not finish within 60 s
   */
  public static Result run(List<String> command, String stdin) {
    return run(command, stdin, null);
  }

  /**
   * Runs a command whose standard output is data (e.g. {@code pdbedit -L}): its standard error (Samba's DEBUG lines,
   * e.g. {@code tdbsam_open: Converting version 0.0 database to version 4.0.} when a passdb is created) is kept out
   * of {@link Result#output()} on success and appended to it on failure, for the error message.
   *
   * @throws SmbException if it cannot be started or does not finish within 60 s
   */
  public static Result runForOutput(List<String> command) {
    Path err = null;
    try {
      err = Files.createTempFile("ossgw-samba-", ".err");
      Result r = run(command, null, err);
      if (r.ok()) {
        return r;
      }
      String e = Files.readString(err, StandardCharsets.UTF_8).strip();
      return new Result(r.exit(), (r.output() + "\n" + e).strip());
    } catch (IOException e) {
      throw new SmbException("running " + command.getFirst() + " failed: " + e.getMessage(), e);
    } finally {
      if (err != null) {
        try {
          Files.deleteIfExists(err);
        } catch (IOException ignored) {
          // a temp file left behind is harmless
        }
      }
    }
  }

  /** Runs {@code command}; standard error goes to {@code stderrFile}, or into the output when it is null. */
  private static Result run(List<String> command, String stdin, Path stderrFile) {
    ProcessBuilder pb = cleanEnvironment(new ProcessBuilder(new ArrayList<>(command)));
    if (stderrFile == null) {
      pb.redirectErrorStream(true);
    } else {
      pb.redirectError(stderrFile.toFile()); // a file, not a pipe: nothing to drain while stdout is read
    }
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new SmbException("cannot run " + command.getFirst() + ": " + e.getMessage(), e);
    }
    try {
      try (OutputStream in = p.getOutputStream()) {
        if (stdin != null) {
          in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      byte[] out;
      try (InputStream o = p.getInputStream()) {
        out = o.readAllBytes(); // the commands used here print little and exit; EOF comes with the exit
      }
      if (!p.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new SmbException(command.getFirst() + " did not finish within " + COMMAND_TIMEOUT.toSeconds() + " s");
      }
      return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      p.destroyForcibly();
      throw new SmbException("running " + command.getFirst() + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new SmbException("interrupted while running " + command.getFirst(), e);
    }
  }
}
