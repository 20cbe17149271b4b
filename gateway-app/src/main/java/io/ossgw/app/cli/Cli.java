package io.ossgw.app.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Builds the picocli command tree and formats errors the same way for every command. */
public final class Cli {
  private Cli() {}

  /** The {@code ossgw} command line over Quarkus's CDI factory (commands are beans and may inject others). */
  public static CommandLine commandLine(CommandLine.IFactory factory) {
    CommandLine cl = new CommandLine(OssgwCommand.class, factory);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setUsageHelpWidth(110);
    // Picocli's own "Unknown option" errors go to stderr with the usage hint, exit code 2 (ExitCodes.USAGE).
    cl.setParameterExceptionHandler((ex, args) -> {
      PrintWriter err = ex.getCommandLine().getErr();
      err.println("ossgw: " + ex.getMessage());
      err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
      err.flush();
      return ExitCodes.USAGE;
    });
    return cl;
  }

  /** Prints {@code ossgw: message} on stderr, one line (a multi-line message keeps its lines, indented). */
  public static void error(String message) {
    String m = message == null ? "unknown error" : message.strip();
    System.err.println("ossgw: " + m.replace("\n", "\n  "));
    System.err.flush();
  }
}
