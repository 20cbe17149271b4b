package io.ossgw.app.mount;

import java.nio.file.Path;

/** Where ossgw keeps state (metadata store, mount logs, the demo's data) when nothing says otherwise. */
public final class StateDirs {
  private StateDirs() {}

  /**
   * The default state directory: {@code /var/lib/ossgw} for root, else {@code $XDG_STATE_HOME/ossgw} or
   * {@code ~/.local/state/ossgw} (the XDG base-directory convention for per-user state).
   */
  public static Path defaultStateDir() {
    if (ProcessIds.uid() == 0) {
      return Path.of("/var/lib/ossgw");
    }
    String xdg = System.getenv("XDG_STATE_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "ossgw");
    }
    return Path.of(System.getProperty("user.home"), ".local", "state", "ossgw");
  }

  /** The user's home directory (for {@code ~/.passwd-ossfs}). */
  public static Path home() {
    return Path.of(System.getProperty("user.home"));
  }
}
