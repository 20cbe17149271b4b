package io.ossgw.app.cli;

import io.ossgw.core.config.OptionCatalog;
import io.ossgw.core.config.OptionKind;
import io.ossgw.core.config.OptionSpec;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ossgw mount --list-options}: every {@code -o} name from the {@link OptionCatalog} as a Markdown table (option,
 * kind, default, unit, meaning), aligned so it reads well in a terminal too. The README options table is this output.
 */
public final class OptionTable {
  private OptionTable() {}

  /** Prints the table. */
  public static void print(PrintStream out) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Option", "Kind", "Default", "Unit", "Meaning"});
    for (OptionSpec s : OptionCatalog.all()) {
      rows.add(new String[] {
          s.takesValue() ? s.name() + "=" : s.name(),
          kind(s.kind()),
          s.defaultValue() == null ? (s.takesValue() ? "-" : "off") : s.defaultValue(),
          s.unit() == null || s.unit().isEmpty() ? "-" : s.unit(),
          s.help().replace("|", "\\|")});
    }
    int[] w = new int[4];
    for (String[] r : rows) {
      for (int i = 0; i < 4; i++) {
        w[i] = Math.max(w[i], r[i].length() + (i == 0 ? 2 : 0));
      }
    }
    for (int n = 0; n < rows.size(); n++) {
      String[] r = rows.get(n);
      String name = n == 0 ? r[0] : "`" + r[0] + "`";
      out.println("| " + pad(name, w[0]) + " | " + pad(r[1], w[1]) + " | " + pad(r[2], w[2]) + " | " + pad(r[3], w[3])
          + " | " + r[4] + " |");
      if (n == 0) {
        out.println("|" + "-".repeat(w[0] + 2) + "|" + "-".repeat(w[1] + 2) + "|" + "-".repeat(w[2] + 2) + "|"
            + "-".repeat(w[3] + 2) + "|---------|");
      }
    }
    out.println();
    out.println("Kinds: engine = implemented by ossgw with ossfs's meaning; fuse = passed to libfuse; "
        + "accepted = accepted with no effect; not implemented = refused by name at mount time.");
  }

  static String kind(OptionKind k) {
    return switch (k) {
      case ENGINE -> "engine";
      case FUSE -> "fuse";
      case ACCEPTED -> "accepted";
      case NOT_IMPLEMENTED -> "not implemented";
    };
  }

  private static String pad(String s, int w) {
    return s + " ".repeat(Math.max(0, w - s.length()));
  }
}
