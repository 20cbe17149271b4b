package io.ossgw.nfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a request-cost table of the docs: the rows between {@code <!-- MARKER:begin -->} and {@code <!-- MARKER:end
 * -->} whose first cell is a scenario name starting with {@code prefix} and whose third cell lists the OSS requests as
 * {@code Op=count} items separated by spaces (an empty cell: no request). The contract tests of NFSv3
 * (docs/nfs-semantics.md) and NFSv4.1 (SEMANTICS.md) hold these tables to the code.
 */
public final class CostTable {
  private CostTable() {}

  /**
   * @param doc the Markdown file
   * @param marker the marker's name, e.g. {@code nfs4-contract}
   * @param prefix the scenario names' prefix, e.g. {@code nfs4-}
   * @return scenario name to (OSS operation to count), in the table's order
   * @throws IOException if the file cannot be read
   */
  public static Map<String, Map<String, Long>> read(Path doc, String marker, String prefix) throws IOException {
    Pattern row = Pattern.compile("^\\|\\s*(" + Pattern.quote(prefix) + "[A-Za-z0-9-]+)\\s*\\|[^|]*\\|([^|]*)\\|\\s*$");
    Map<String, Map<String, Long>> rows = new LinkedHashMap<>();
    boolean in = false;
    for (String line : Files.readAllLines(doc)) {
      if (line.contains("<!-- " + marker + ":begin -->")) {
        in = true;
      } else if (line.contains("<!-- " + marker + ":end -->")) {
        in = false;
      } else if (in) {
        Matcher m = row.matcher(line);
        if (m.matches()) {
          Map<String, Long> cost = new TreeMap<>();
          for (String item : m.group(2).trim().split("\\s+")) {
            if (!item.isEmpty()) {
              String[] kv = item.split("=");
              cost.put(kv[0], Long.parseLong(kv[1]));
            }
          }
          rows.put(m.group(1), cost);
        }
      }
    }
    return rows;
  }
}
