package io.ossgw.fuse;

import io.ossgw.fuse.jfuse.JfuseBinding;
import io.ossgw.fuse.jnr.JnrFuseBinding;
import java.util.Locale;

/**
 * Chooses the native FUSE binding. Two exist: {@code jnr} (jnr-fuse 0.5.8 over libfuse 2.9, the default) and {@code
 * jfuse} (jfuse 0.7.3 over libfuse 3 through Java's FFM API). The choice is process-wide and comes from the system
 * property {@value #PROPERTY} (e.g. {@code OSSGW_JAVA_OPTS=-Dio.ossgw.fuse.binding=jfuse ./ossgw mount ...}); the name is
 * outside the {@code ossgw.} namespace because Quarkus rejects unknown keys there. docs/fuse-threading.md has the
 * measurements behind the default.
 */
public final class FuseBindings {
  /** System property naming the binding: {@code jnr} or {@code jfuse}. */
  public static final String PROPERTY = "io.ossgw.fuse.binding";

  /** The binding used when neither the property nor the environment names one. */
  public static final String DEFAULT = "jnr";

  private FuseBindings() {}

  /** The binding named by {@link #PROPERTY}, else {@link #DEFAULT}. */
  public static FuseBinding configured() {
    String name = System.getProperty(PROPERTY);
    return byName(name == null || name.isBlank() ? DEFAULT : name);
  }

  /**
   * A new binding by name.
   *
   * @param name {@code jnr} (also {@code jnr-fuse}, {@code libfuse2}) or {@code jfuse} (also {@code libfuse3})
   * @throws MountException for any other name
   */
  public static FuseBinding byName(String name) {
    return switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "jnr", "jnr-fuse", "libfuse2" -> new JnrFuseBinding();
      case "jfuse", "libfuse3" -> new JfuseBinding();
      default -> throw new MountException("unknown FUSE binding '" + name + "' (-D" + PROPERTY
          + "): use jnr (libfuse2) or jfuse (libfuse3)");
    };
  }
}
