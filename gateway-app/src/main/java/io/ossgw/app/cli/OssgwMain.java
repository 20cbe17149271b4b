package io.ossgw.app.cli;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.inject.Inject;
import picocli.CommandLine;

/**
 * The {@code ossgw} entry point. Before Quarkus starts it applies {@link LaunchSettings} (only {@code serve} opens the
 * HTTP port; {@code serve --config FILE} becomes an extra config source), then runs the picocli command tree.
 */
@QuarkusMain
public class OssgwMain implements QuarkusApplication {
  @Inject
  CommandLine.IFactory factory;

  /** The JVM entry point (also what the generated quarkus-run.jar main calls). */
  public static void main(String... args) {
    String problem = LaunchSettings.apply(args);
    if (problem != null) {
      System.err.println("ossgw: " + problem);
      System.exit(ExitCodes.USAGE);
    }
    Quarkus.run(OssgwMain.class, args);
  }

  @Override
  public int run(String... args) {
    return Cli.commandLine(factory).execute(args);
  }
}
