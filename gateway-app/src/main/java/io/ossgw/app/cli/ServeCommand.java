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
import picocli.CommandLine.Parameters;

/**
 * {@code ossgw serve [--config FILE]}: runs the configured mounts and NFS exports (see {@code ossgw.*} properties),
 * health on {@code /q/health} and metrics on {@code /q/metrics} until SIGTERM/SIGINT, then stops NFS, unmounts
 * everything and exits 0. The quick form {@code ossgw serve BUCKET[:/PREFIX] --nfs [--nfs-port P] [--nfs-bind ADDR]
 * [--nfs-clients CIDR] [--http-bind ADDR]
 * --smb [--smb-port P] [--smb-bind ADDR] [--smb-user NAME:PASSWORD_FILE] [-o OPTIONS]} is translated into the same
 * properties before start-up ({@link QuickServe}).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {"Run the gateway from configuration: application.properties, environment variables "
        + "(OSSGW_OSS_ENDPOINT, ...), -D system properties and --config FILE: FUSE mounts (ossgw.mounts.*), NFS "
        + "exports (ossgw.exports.*, ossgw.nfs.*) and SMB shares (ossgw.shares.*, ossgw.smb.*; Samba's smbd).",
        "Quick form: ossgw serve BUCKET[:/PREFIX] --nfs [--nfs-port P] [--nfs-bind ADDR] [--nfs-clients CIDR] "
            + "--smb [--smb-port P] [--smb-bind ADDR] --smb-user NAME:PASSWORD_FILE [--http-bind ADDR] -o OPTIONS",
        "The quick form listens on 127.0.0.1 (NFS, health, metrics) unless --nfs-bind / --http-bind say otherwise.",
        "Health: /q/health/ready and /q/health/live; Prometheus metrics: /q/metrics (HTTP port: quarkus.http.port, "
            + "default 8080). Without ossgw.oss.endpoint an embedded OSS emulator is started and used."})
public class ServeCommand implements Callable<Integer> {
  private static final Logger LOG = Logger.getLogger(ServeCommand.class);

  /** Read before start-up by {@link LaunchSettings}; declared here for --help and validation. */
  @Option(names = "--config", paramLabel = "FILE",
      description = "a properties file with ossgw.* (and quarkus.*) settings; it wins over application.properties, "
          + "environment variables and -D win over it")
  Path config;

  /** Read before start-up by {@link QuickServe}, like the options below; declared here for --help and validation. */
  @Parameters(arity = "0..1", paramLabel = "BUCKET[:/PREFIX]",
      description = "quick form: serve this bucket (or sub-path) without a config file; needs --nfs and/or --smb")
  String source;

  @Option(names = "--nfs", description = "quick form: export BUCKET as /BUCKET (or /BUCKET/PREFIX) over NFSv4.1 and "
      + "NFSv3 on one port (ossgw.nfs.versions); clients: mount -t nfs HOST:/BUCKET /mnt")
  boolean nfs;

  @Option(names = "--nfs-port", paramLabel = "PORT",
      description = "NFS TCP port of both versions (ossgw.nfs.port; default 2049, where NFSv4.1 clients need no "
          + "option; 0 = any free port)")
  Integer nfsPort;

  @Option(names = "--nfs-bind", paramLabel = "ADDR",
      description = "NFS listen address (ossgw.nfs.bind; quick form default 127.0.0.1, this host only; 0.0.0.0 = "
          + "all interfaces)")
  String nfsBind;

  @Option(names = "--nfs-clients", paramLabel = "CIDR[,CIDR]",
      description = "client networks the quick form's export allows (ossgw.exports.BUCKET.clients; default *: "
          + "every client that reaches --nfs-bind, logged as a WARN when that is not loopback)")
  String nfsClients;

  @Option(names = "--http-bind", paramLabel = "ADDR",
      description = "health and metrics listen address (quarkus.http.host; quick form default 127.0.0.1, config "
          + "form 0.0.0.0)")
  String httpBind;

  @Option(names = "--smb", description = "quick form: share BUCKET over SMB2/3 as \\\\HOST\\BUCKET (Samba's smbd "
      + "over a FUSE mount; apt-get install samba)")
  boolean smb;

  @Option(names = "--smb-port", paramLabel = "PORT", description = "SMB TCP port (ossgw.smb.port; default 445)")
  Integer smbPort;

  @Option(names = "--smb-bind", paramLabel = "ADDR", description = "SMB listen address (ossgw.smb.bind; default "
      + "0.0.0.0)")
  String smbBind;

  @Option(names = "--smb-user", paramLabel = "NAME:PASSWORD_FILE", description = "an SMB user and the file holding "
      + "its password (ossgw.smb.users.NAME.password-file); repeatable")
  java.util.List<String> smbUsers;

  @Option(names = "-o", paramLabel = "OPTIONS",
      description = "quick form: the options of 'ossgw mount' (ossfs names, comma-separated; url= is the OSS "
          + "endpoint; without one the embedded emulator serves the bucket)")
  java.util.List<String> options;

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
    LOG.infof("ossgw serving %d mount(s), %d NFS export(s)%s, %d SMB share(s)%s; health: http://%s:%s/q/health, "
        + "metrics: /q/metrics", gateway.mounts().size(), gateway.exports().size(),
        gateway.nfsPort().map(p -> " on port " + p).orElse(""),
        gateway.smb().map(s -> s.shares().size()).orElse(0),
        gateway.smb().map(s -> " on port " + s.settings().port()).orElse(""), cfg.getOptionalValue("quarkus.http.host", String.class).orElse("0.0.0.0"),
        cfg.getOptionalValue("quarkus.http.port", String.class).orElse("8080"));
    try {
      Quarkus.waitForExit();
    } finally {
      gateway.stop();
    }
    return ExitCodes.OK;
  }
}
