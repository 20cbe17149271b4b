package io.ossgw.app.cli;

import io.quarkus.runtime.Quarkus;
import sun.misc.Signal;

/**
 * Makes SIGTERM and SIGINT a clean stop for long-running commands ({@code mount -f}, {@code serve}, {@code demo}).
 * Quarkus's own handlers exit with 128+signal; these replace them (after start-up) with {@link Quarkus#asyncExit}(0),
 * so {@link Quarkus#waitForExit()} returns, the command unmounts and closes its engines, and the process exits 0.
 */
public final class Signals {
  private Signals() {}

  /** Installs the handlers; call from the command, after Quarkus has started. */
  public static void exitCleanlyOnTermination() {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), sig -> Quarkus.asyncExit(ExitCodes.OK));
      } catch (IllegalArgumentException e) {
        // the signal is not available on this platform (or reserved by the JVM): keep the default behaviour
      }
    }
  }
}
