package io.ossgw.app.cli;

import io.ossgw.core.config.MountOptions;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Sets the level of ossgw's own loggers from {@code -d} or the ossfs option {@code dbglevel=}. */
public final class LogLevels {
  // JUL keeps loggers weakly; holding them keeps the level set here.
  private static final Logger OSSGW = Logger.getLogger("io.ossgw");
  private static final Logger SDK = Logger.getLogger("com.aliyun.oss");

  private LogLevels() {}

  /**
   * @param debugFlags how often {@code -d} was given (1 = debug logging)
   * @param options the {@code -o} options; {@code dbglevel=crit|err|warn|info|dbg} as in ossfs
   */
  public static void apply(int debugFlags, MountOptions options) {
    Level level = null;
    var dbg = options.get("dbglevel");
    if (dbg.isPresent()) {
      level = switch (dbg.get().toLowerCase(java.util.Locale.ROOT)) {
        case "crit", "critical", "err", "error" -> Level.SEVERE;
        case "warn", "warning" -> Level.WARNING;
        case "info" -> Level.INFO;
        case "dbg", "debug" -> Level.FINE;
        default -> throw new IllegalArgumentException(
            "option 'dbglevel' must be crit, err, warn, info or dbg, got '" + dbg.get() + "'");
      };
    }
    if (debugFlags > 0) {
      level = Level.FINE;
    }
    if (level != null) {
      OSSGW.setLevel(level);
      if (level == Level.FINE) {
        SDK.setLevel(Level.INFO);
      }
    }
  }
}
