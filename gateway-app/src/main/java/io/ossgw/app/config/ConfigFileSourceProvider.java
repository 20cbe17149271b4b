package io.ossgw.app.config;

import io.smallrye.config.PropertiesConfigSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.ConfigSourceProvider;

/**
 * The config source of {@code ossgw serve --config FILE}: FILE (a properties file, named by the system property
 * {@value #FILE_PROPERTY} that {@code LaunchSettings} sets before start-up) with ordinal {@value #ORDINAL}: above
 * application.properties (250) and {@code $PWD/config/application.properties} (260), below {@code .env} (295),
 * environment variables (300) and {@code -D} system properties (400), as docs/deploy.md promises.
 *
 * <p>Why not {@code quarkus.config.locations}: SmallRye Config gives the sources it loads from the locations the
 * ordinal of the source that named them; set as a system property, FILE ranked 400 and won over environment
 * variables and, on ties, over {@code -D} too. Registered through
 * {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSourceProvider}.
 */
public final class ConfigFileSourceProvider implements ConfigSourceProvider {
  /** The system property holding the absolute path of the {@code --config} file. */
  public static final String FILE_PROPERTY = "io.ossgw.config-file";
  /** The ordinal of the file's source. */
  public static final int ORDINAL = 270;

  /**
   * @return the file's source, or none when {@value #FILE_PROPERTY} is unset or blank
   * @throws UncheckedIOException when the file cannot be read
   */
  @Override
  public Iterable<ConfigSource> getConfigSources(ClassLoader forClassLoader) {
    String file = System.getProperty(FILE_PROPERTY);
    if (file == null || file.isBlank()) {
      return List.of();
    }
    try {
      return List.of(new PropertiesConfigSource(Path.of(file).toUri().toURL(), ORDINAL));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the config file " + file, e);
    }
  }
}
