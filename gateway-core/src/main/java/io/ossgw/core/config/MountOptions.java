package io.ossgw.core.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parsed ossfs-style {@code -o opt[,opt...]} options, checked against the {@link OptionCatalog}.
 *
 * <p>Unknown names and ossfs options ossgw does not implement are refused by name ({@link IllegalArgumentException}
 * with a message meant for the user), never silently ignored. A bare flag given a value, or a value option given none,
 * is refused too. Later occurrences of a name override earlier ones, as with libfuse.
 */
public final class MountOptions {
  private final Map<String, String> values;

  private MountOptions(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(values);
  }

  /** No options: every default. */
  public static MountOptions empty() {
    return new MountOptions(new LinkedHashMap<>());
  }

  /**
   * Parses the arguments of one or more {@code -o} flags.
   *
   * @param optionStrings e.g. {@code ["url=http://127.0.0.1:9000,sigv4", "allow_other"]}
   * @throws IllegalArgumentException naming the offending option
   */
  public static MountOptions parse(List<String> optionStrings) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String s : optionStrings) {
      if (s == null) {
        continue;
      }
      for (String part : s.split(",")) {
        String item = part.strip();
        if (item.isEmpty()) {
          continue;
        }
        int eq = item.indexOf('=');
        String name = eq < 0 ? item : item.substring(0, eq);
        String value = eq < 0 ? null : item.substring(eq + 1);
        OptionSpec spec = OptionCatalog.find(name).orElseThrow(() -> new IllegalArgumentException(
            "unknown option '" + name + "'" + didYouMean(name) + " (see 'ossgw mount --list-options')"));
        if (spec.kind() == OptionKind.NOT_IMPLEMENTED) {
          throw new IllegalArgumentException("ossfs option '" + name + "' is not implemented by ossgw yet; remove it to mount");
        }
        if (spec.takesValue() && value == null) {
          throw new IllegalArgumentException("option '" + name + "' needs a value: " + name + "=<" + spec.unit() + ">");
        }
        if (!spec.takesValue() && value != null) {
          throw new IllegalArgumentException("option '" + name + "' takes no value");
        }
        out.put(name, value == null ? "" : value);
      }
    }
    return new MountOptions(out);
  }

  /** {@code "; did you mean 'a' or 'b'?"} with the nearest known names, or "" when none is near. */
  private static String didYouMean(String name) {
    List<String> near = OptionCatalog.nearest(name);
    if (near.isEmpty()) {
      return "";
    }
    List<String> quoted = near.stream().map(n -> "'" + n + "'").toList();
    return "; did you mean " + (quoted.size() == 1 ? quoted.getFirst()
        : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.getLast()) + "?";
  }

  /** Builds options from a name-to-value map (Quarkus config); flags map to "" or "true". Same checks as {@link #parse}. */
  public static MountOptions of(Map<String, String> map) {
    List<String> items = new ArrayList<>();
    map.forEach((k, v) -> {
      OptionSpec spec = OptionCatalog.find(k).orElse(null);
      boolean flag = spec != null && !spec.takesValue();
      if (flag) {
        if (v == null || v.isEmpty() || Boolean.parseBoolean(v)) {
          items.add(k);
        }
      } else {
        items.add(k + "=" + v);
      }
    });
    return parse(List.of(String.join(",", items)));
  }

  /** True if the option was given (flag or value). */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The raw value of a value option, if given. */
  public Optional<String> get(String name) {
    String v = values.get(name);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** An integer option, or the default; the message names the option when the value is not a number. */
  public long getLong(String name, long def) {
    Optional<String> v = get(name);
    if (v.isEmpty()) {
      return def;
    }
    try {
      return Long.parseLong(v.get().strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option '" + name + "' needs a whole number, got '" + v.get() + "'");
    }
  }

  /** A decimal option (seconds), or the default. */
  public double getDouble(String name, double def) {
    Optional<String> v = get(name);
    if (v.isEmpty()) {
      return def;
    }
    try {
      return Double.parseDouble(v.get().strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option '" + name + "' needs a number, got '" + v.get() + "'");
    }
  }

  /** An octal option such as umask, or the default. */
  public int getOctal(String name, int def) {
    Optional<String> v = get(name);
    if (v.isEmpty()) {
      return def;
    }
    try {
      return Integer.parseInt(v.get().strip(), 8);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option '" + name + "' needs an octal number, got '" + v.get() + "'");
    }
  }

  /** The options of a given kind, in the order given, as {@code name} or {@code name=value}. */
  public List<String> ofKind(OptionKind kind) {
    List<String> out = new ArrayList<>();
    values.forEach((k, v) -> {
      if (OptionCatalog.find(k).map(OptionSpec::kind).orElse(null) == kind) {
        out.add(v.isEmpty() ? k : k + "=" + v);
      }
    });
    return out;
  }

  /** All given options. */
  public Map<String, String> asMap() {
    return values;
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
