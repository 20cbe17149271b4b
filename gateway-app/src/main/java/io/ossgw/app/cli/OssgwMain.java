package io.ossgw.app.cli;

import io.ossgw.app.lifecycle.HeapGuard;
import io.quarkus.runtime.ApplicationLifecycleManager;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.QuarkusBindException;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import java.util.function.BiConsumer;
import picocli.CommandLine;

/**
 * The {@code ossgw} entry point. Before Quarkus starts it installs the {@link HeapGuard} (an exhausted heap ends the
 * process with a FATAL line and {@link ExitCodes#HEAP_EXHAUSTED}), applies {@link LaunchSettings} (only {@code serve}
 * opens the HTTP port; {@code serve --config FILE} becomes an extra config source), then runs the picocli command tree.
 */
@QuarkusMain
public class OssgwMain implements QuarkusApplication {
  @Inject
  CommandLine.IFactory factory;

  /** The JVM entry point (also what the generated quarkus-run.jar main calls). */
  public static void main(String... args) {
    HeapGuard.install(describe(args));
    String problem = LaunchSettings.apply(args);
    if (problem != null) {
      System.err.println("ossgw: " + problem);
      System.exit(ExitCodes.USAGE);
    }
    BiConsumer<Integer, Throwable> exit = ApplicationLifecycleManager.getDefaultExitCodeHandler();
    Quarkus.run(OssgwMain.class, (code, failure) -> {
      String hint = startupHint(failure);
      if (hint != null) {
        System.err.println("ossgw: " + hint);
      }
      exit.accept(code, failure); // Quarkus's own (System.exit; in @QuarkusMainTest, the test's)
    }, args);
  }

  /** {@code ossgw} and the arguments before the first option, at most three: {@code ossgw mount BUCKET /mnt/x}. */
  static String describe(String... args) {
    StringBuilder sb = new StringBuilder("ossgw");
    for (int i = 0; i < Math.min(3, args.length) && !args[i].startsWith("-"); i++) {
      sb.append(' ').append(args[i]);
    }
    return sb.toString();
  }

  /**
   * The ossgw hint for a start-up failure, or null: for unknown {@code ossgw.*} properties, each key with the nearest
   * known one ({@link UnknownProperties}); for the HTTP port of {@code serve} being taken (Quarkus's
   * {@link QuarkusBindException}), the documented ways to pick another port (README: {@code QUARKUS_HTTP_PORT}).
   */
  static String startupHint(Throwable failure) {
    String unknown = UnknownProperties.hint(failure); // ossgw.* keys no mapping knows: SmallRye fails before logging
    if (unknown != null) {
      return unknown.replace("\n", "\nossgw: ");
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof QuarkusBindException b) {
        return "the HTTP port " + b.getPort() + " (health and metrics) is already in use on " + b.getHost()
            + "; pick another with QUARKUS_HTTP_PORT=PORT (environment) or quarkus.http.port=PORT (--config FILE), "
            + "e.g. QUARKUS_HTTP_PORT=8081 ossgw serve ...";
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  @Override
  public int run(String... args) {
    return Cli.commandLine(factory).execute(args);
  }
}
