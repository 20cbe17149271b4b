package io.ossgw.app.cluster;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * A Valkey (or Redis) server for one test: {@code valkey-server} (Debian 12: bookworm-backports; .ci/run installs it)
 * or {@code redis-server}, on 127.0.0.1 and a port the OS picked, with its files in a temporary directory, no
 * persistence. {@link #stop} and {@link #start} again on the same port (a store restart).
 */
final class ValkeyServer implements AutoCloseable {
  final int port;
  private final Path dir;
  private final List<String> extra;
  private Process process;

  private ValkeyServer(Path dir, List<String> extra) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      this.port = s.getLocalPort();
    }
    this.dir = dir;
    this.extra = extra;
  }

  /** The server binary, or a skipped test when neither is installed. */
  static String binary() {
    for (String b : List.of("/usr/bin/valkey-server", "/usr/bin/redis-server")) {
      if (Files.isExecutable(Path.of(b))) {
        return b;
      }
    }
    Assumptions.abort("neither valkey-server nor redis-server is installed (apt-get install valkey-server; .ci/run "
        + "does)");
    return null;
  }

  /** Starts a server with extra {@code --name value} arguments (e.g. {@code --requirepass}, {@code --maxmemory}). */
  static ValkeyServer start(Path dir, String... extra) throws IOException {
    ValkeyServer v = new ValkeyServer(dir, List.of(extra));
    v.start();
    return v;
  }

  void start() throws IOException {
    List<String> cmd = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--dir", dir.toString(), "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile",
        dir.resolve("server.log").toString()));
    cmd.addAll(extra);
    process = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile())
        .start();
    long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < until) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        if (!process.isAlive()) {
          throw new IOException("the store did not start: " + Files.readString(dir.resolve("stdout.log")));
        }
        try {
          Thread.sleep(20); // polling a port that is not up yet (the wait is bounded by the deadline)
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
    throw new IOException("the store did not listen on " + port + " within 60 s");
  }

  /** SIGKILLs the server and waits for it (a crash; nothing is saved). */
  void stop() {
    if (process != null) {
      process.destroyForcibly();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process = null;
    }
  }

  String url() {
    return "redis://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    stop();
  }
}
