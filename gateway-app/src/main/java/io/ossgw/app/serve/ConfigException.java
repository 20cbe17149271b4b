package io.ossgw.app.serve;

import java.util.List;

/** The serve configuration is invalid; the message lists every problem, one per line, naming the property. */
public class ConfigException extends RuntimeException {
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super("invalid configuration:\n  - " + String.join("\n  - ", problems));
    this.problems = List.copyOf(problems);
  }

  /** The individual problems. */
  public List<String> problems() {
    return problems;
  }
}
