package io.ossgw.app.mount;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts this same program again: the same {@code java} binary, the same JVM options
 * ({@code --enable-native-access}, {@code -D...}, heap flags) and the same jar, so a detached {@code ossgw mount}
 * child never depends on {@code ./ossgw} or {@code java} being on the PATH.
 */
public final class SelfLauncher {
  private SelfLauncher() {}

  /**
   * @param args the program arguments of the new process
   * @return {@code java <jvm options> -jar <jar> args...} (or {@code -cp <class path> <main class>} when not started
   *     from a jar)
   */
  public static List<String> command(List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      // A debugger agent would try to bind the same port twice.
      if (!a.startsWith("-agentlib:jdwp") && !a.startsWith("-Xrunjdwp")) {
        cmd.add(a);
      }
    }
    String classPath = System.getProperty("java.class.path", "");
    String javaCommand = System.getProperty("sun.java.command", "");
    String first = javaCommand.isBlank() ? "" : javaCommand.split(" ")[0];
    if (first.endsWith(".jar") && Files.isRegularFile(Path.of(first))) {
      cmd.add("-jar");
      cmd.add(Path.of(first).toAbsolutePath().toString());
    } else if (!classPath.contains(java.io.File.pathSeparator) && classPath.endsWith(".jar")) {
      cmd.add("-jar");
      cmd.add(Path.of(classPath).toAbsolutePath().toString());
    } else {
      cmd.add("-cp");
      cmd.add(classPath);
      cmd.add(first.isEmpty() ? "io.ossgw.app.cli.OssgwMain" : first);
    }
    cmd.addAll(args);
    return cmd;
  }

  /** {@code setsid} if installed: the detached child gets its own session, so a closing terminal's SIGHUP misses it. */
  public static List<String> setsidPrefix() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "setsid");
      if (Files.isExecutable(p)) {
        return List.of(p.toString());
      }
    }
    for (String p : List.of("/usr/bin/setsid", "/bin/setsid")) {
      if (Files.isExecutable(Path.of(p))) {
        return List.of(p);
      }
    }
    return List.of();
  }
}
