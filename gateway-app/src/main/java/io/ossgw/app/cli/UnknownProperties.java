package io.ossgw.app.cli;

import io.ossgw.app.config.ClusterConfig;
import io.ossgw.app.config.DefaultOptionsConfig;
import io.ossgw.app.config.EmulatorConfig;
import io.ossgw.app.config.ExportsConfig;
import io.ossgw.app.config.GatewayConfig;
import io.ossgw.app.config.MountsConfig;
import io.ossgw.app.config.NfsConfig;
import io.ossgw.app.config.OssConfig;
import io.ossgw.app.config.SharesConfig;
import io.ossgw.app.config.SmbConfig;
import io.ossgw.core.config.OptionCatalog;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.ConfigValidationException;
import io.smallrye.config.WithName;
import io.smallrye.config.WithParentName;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message for {@code ossgw.*} properties that no {@code @ConfigMapping} knows (SmallRye Config refuses them with
 * {@code SRCFG00050: KEY in SOURCE does not map to any root} before logging is set up, so Quarkus prints nothing):
 * each unknown key, where it came from, and the nearest known keys, as {@code -o} options already say "did you mean".
 * The known keys come from the mapping interfaces themselves ({@code *} stands for a name: an export, a share, a user,
 * an option).
 */
final class UnknownProperties {
  /** Every {@code @ConfigMapping} of {@code ossgw.*} (UnknownPropertiesTest checks the package holds no other). */
  static final List<Class<?>> MAPPINGS = List.of(GatewayConfig.class, OssConfig.class, MountsConfig.class,
      DefaultOptionsConfig.class, EmulatorConfig.class, NfsConfig.class, ExportsConfig.class, SmbConfig.class,
      SharesConfig.class, ClusterConfig.class);

  private static final Pattern UNMAPPED = Pattern.compile("SRCFG00050: (\\S+) in (.+?) does not map to any root");

  private UnknownProperties() {}

  /**
   * The message for a start-up failure caused by unknown properties, or null when the failure is something else.
   *
   * @return one line per unknown key: {@code unknown property KEY (in SOURCE); did you mean 'NEAR'?}
   */
  static String hint(Throwable failure) {
    Set<String> lines = new LinkedHashSet<>();
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      List<String> messages = new ArrayList<>();
      messages.add(String.valueOf(t.getMessage()));
      if (t instanceof ConfigValidationException v) {
        for (int i = 0; i < v.getProblemCount(); i++) {
          messages.add(v.getProblem(i).getMessage());
        }
      }
      for (String m : messages) {
        Matcher x = UNMAPPED.matcher(m);
        while (x.find()) {
          lines.add(line(x.group(1), x.group(2)));
        }
      }
    }
    return lines.isEmpty() ? null : String.join("\n", lines);
  }

  static String line(String key, String source) {
    List<String> near = nearest(key);
    return "unknown property " + key + " (in " + source + ")" + (near.isEmpty() ? ""
        : "; did you mean " + String.join(" or ", near.stream().map(n -> "'" + n + "'").toList()) + "?")
        + " README.md \"Configuration\" lists every ossgw.* key";
  }

  /** The known keys nearest to {@code key} (at most 3), or the keys of its section when none is near. */
  static List<String> nearest(String key) {
    String[] parts = key.split("\\.", -1);
    int limit = Math.max(2, key.length() / 6);
    int best = Integer.MAX_VALUE;
    List<String> out = new ArrayList<>();
    for (String pattern : knownKeys()) {
      String concrete = instantiate(pattern, parts);
      // a key cut short or run on ("grace" for "grace-time") is as near as one typo
      int d = concrete.startsWith(key + "-") || key.startsWith(concrete + "-") ? 1
          : OptionCatalog.distance(key, concrete);
      if (d > limit || d > best) {
        continue;
      }
      if (d < best) {
        best = d;
        out.clear();
      }
      if (!out.contains(concrete)) {
        out.add(concrete);
      }
    }
    if (out.isEmpty() && parts.length > 2) {
      String section = parts[0] + "." + parts[1] + ".";
      knownKeys().stream().filter(k -> k.startsWith(section)).map(k -> instantiate(k, parts)).distinct()
          .forEach(out::add);
    }
    return out.size() > 3 ? List.copyOf(out.subList(0, 3)) : out;
  }

  /** The pattern with each {@code *} replaced by the key's segment at the same place. */
  private static String instantiate(String pattern, String[] parts) {
    String[] p = pattern.split("\\.", -1);
    for (int i = 0; i < p.length; i++) {
      if (p[i].equals("*") && i < parts.length) {
        p[i] = parts[i];
      }
    }
    return String.join(".", p);
  }

  /** Every known {@code ossgw.*} key, map keys as {@code *}. */
  static List<String> knownKeys() {
    List<String> out = new ArrayList<>();
    for (Class<?> m : MAPPINGS) {
      walk(m.getAnnotation(ConfigMapping.class).prefix(), m, out);
    }
    return out;
  }

  private static void walk(String prefix, Class<?> type, List<String> out) {
    for (Method method : type.getMethods()) {
      if (method.getParameterCount() != 0 || method.isDefault() || java.lang.reflect.Modifier.isStatic(
          method.getModifiers()) || method.getDeclaringClass() == Object.class) {
        continue;
      }
      WithName named = method.getAnnotation(WithName.class);
      String name = method.isAnnotationPresent(WithParentName.class) ? ""
          : named != null ? named.value() : kebab(method.getName());
      String here = name.isEmpty() ? prefix : prefix + "." + name;
      Type rt = method.getGenericReturnType();
      Class<?> raw = method.getReturnType();
      if (raw == java.util.Optional.class && rt instanceof ParameterizedType pt
          && pt.getActualTypeArguments()[0] instanceof Class<?> c && isGroup(c)) {
        walk(here, c, out);
      } else if (java.util.Map.class.isAssignableFrom(raw) && rt instanceof ParameterizedType pt) {
        Type v = pt.getActualTypeArguments()[1];
        if (v instanceof Class<?> c && isGroup(c)) {
          walk(here + ".*", c, out);
        } else {
          out.add(here + ".*");
        }
      } else if (isGroup(raw)) {
        walk(here, raw, out);
      } else {
        out.add(here);
      }
    }
  }

  private static boolean isGroup(Class<?> c) {
    return c.isInterface() && c.getName().startsWith("io.ossgw.");
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
