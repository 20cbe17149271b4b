package io.ossgw.fuse;

import io.ossgw.fuse.jfuse.JfuseBinding;
import io.ossgw.fuse.jnr.JnrFuseBinding;
import java.util.Locale;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the native FUSE binding. Two exist: {@code jfuse} (jfuse 0.7.3 over libfuse 3 through Java's FFM API, the
 * default) and {@code jnr} (jnr-fuse 0.5.8 over libfuse 2.9). The choice is process-wide and comes from the system
 * property {@value #PROPERTY} (e.g. {@code OSSGW_JAVA_OPTS=-Dio.ossgw.fuse.binding=jnr ./ossgw mount ...}); the name is
 * outside the {@code ossgw.} namespace because Quarkus rejects unknown keys there.
 *
 * <p>Without the property the binding is {@code jfuse} when libfuse 3 ({@code libfuse3.so.3}, Debian {@code
 * libfuse3-3}) can be loaded, else {@code jnr} when libfuse 2 ({@code libfuse.so.2}) can, with one WARN line saying
 * why; with neither, a {@link MountException} naming both packages. A binding named by the property is used or fails,
 * never replaced. Why jfuse: 1 MiB requests, READDIRPLUS with attributes, upcalls that stay attached to their JVM
 * threads; it spends less CPU per GiB and per listing on every measured row (docs/benchmarks.md "libfuse 3 by default
 * (issue 14)", docs/fuse-threading.md).
 */
public final class FuseBindings {
  private static final Logger LOG = LoggerFactory.getLogger(FuseBindings.class);

  /** System property naming the binding: {@code jnr} or {@code jfuse}. */
  public static final String PROPERTY = "io.ossgw.fuse.binding";

  /** The binding preferred when the property names none (used if its library loads). */
  public static final String DEFAULT = "jfuse";

  private FuseBindings() {}

  /**
   * The binding named by {@link #PROPERTY}, else the first of jfuse and jnr whose library loads.
   *
   * @throws MountException if the named binding is unknown, or if none was named and neither library loads
   */
  public static FuseBinding configured() {
    String name = System.getProperty(PROPERTY);
    if (name != null && !name.isBlank()) {
      return byName(name);
    }
    return firstLoadable(JfuseBinding::new, JnrFuseBinding::new);
  }

  /**
   * {@code preferred} if its library loads, else {@code fallback} (logged once at WARN with the reason).
   *
   * @throws MountException with both reasons when neither loads
   */
  static FuseBinding firstLoadable(Supplier<FuseBinding> preferred, Supplier<FuseBinding> fallback) {
    FuseBinding p = preferred.get();
    MountException whyNot;
    try {
      p.load();
      return p;
    } catch (MountException e) {
      whyNot = e;
    }
    FuseBinding f = fallback.get();
    try {
      f.load();
    } catch (MountException e) {
      e.addSuppressed(whyNot);
      throw new MountException("no FUSE library can be loaded: " + whyNot.getMessage() + "; " + e.getMessage(), e);
    }
    LOG.warn("FUSE: using {} because {} cannot be used: {}", f.name(), p.name(), whyNot.getMessage());
    return f;
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
          + "): use jfuse (libfuse3) or jnr (libfuse2)");
    };
  }
}
