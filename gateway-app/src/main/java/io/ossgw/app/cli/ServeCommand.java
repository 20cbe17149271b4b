package io.ossgw.app.cli;

import io.ossgw.app.serve.ConfigException;
import io.ossgw.app.serve.Gateway;
import io.quarkus.runtime.Quarkus;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ossgw serve [--config FILE]}: runs the configured mounts (see {@code ossgw.*} properties), health on
 * {@code /q/health} and metrics on {@code /q/metrics} until SIGTERM/SIGINT, then unmounts everything and exits 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run the gateway from configuration: application.properties, environment variables "
        + "(OSSGW_OSS_ENDPOINT, ...), -D system properties and --config FILE.",
        "Health: /q/health/ready and /q/health/live; Prometheus metrics: /q/metrics (HTTP port: quarkus.http.port, "
            + "default 8080). Without ossgw.oss.endpoint an embedded OSS emulator is started and used."})
public class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = Logger.getLogger(ServeCommand.class);

  /** Read before start-up by {@link LaunchSettings}; declared here for --help and validation. */
  @Option(names = "--config", paramLabel = "FILE",
      description = "a properties file with ossgw.* (and quarkus.*) settings; it wins over application.properties, "
          + "environment variables and -D win over it")
  Path config;

  @Inject
  Gateway gateway;

  @Override
  public Integer call() {
    Signals.exitCleanlyOnTermination();
    try {
      gateway.start();
    } catch (ConfigException e) {
      Cli.error(e.getMessage());
      return ExitCodes.USAGE;
    } catch (RuntimeException e) {
      Cli.error(e.getMessage() == null ? e.toString() : e.getMessage());
      return ExitCodes.FAILED;
    }
    var cfg = ConfigProvider.getConfig();
    LOG.infof("ossgw serving %d mount(s); health: http://%s:%s/q/health, metrics: /q/metrics",
        gateway.mounts().size(), cfg.getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0"),
        cfg.getOptionalValue("quarkus.http.port", String.class).orElse("8080"));
    try {
      Quarkus.waitForExit();
    } finally {
      gateway.stop();
    }
    return ExitCodes.OK;
  }
}
