package io.ossgw.nfs;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.export.Squash;
import java.nio.file.Path;
import java.util.List;

/**
 * The gateway of the NFS benchmark (src/test/bench/nfs-bench.sh): an engine over an OSS endpoint and an NFS server
 * exporting the bucket as {@code /BUCKET} on 127.0.0.1 (no_root_squash: the libnfs tools run as root). Prints {@code PORT n}, serves until killed. Not a test.
 *
 * <p>Usage: {@code NfsBenchMain ENDPOINT BUCKET AK SK STATE_DIR [-o options]}
 */
public final class NfsBenchMain {
  private NfsBenchMain() {}

  public static void main(String[] args) throws Exception {
    String options = args.length > 6 && args[5].equals("-o") ? args[6] : "";
    MountOptions o = MountOptions.parse(List.of("url=" + args[0], options));
    Engine engine = Engine.start(EngineConfig.fromOptions(args[1], "", o, new Credentials(args[2], args[3]), 0, 0,
        Path.of(args[4])));
    NfsServer server = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(Path.of(args[4]))
        .export(Export.builder("/" + args[1], engine.fileSystem()).squash(Squash.NO_ROOT_SQUASH).build()).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop();
      engine.close();
      System.out.println("STATS " + "stopped");
    }));
    System.out.println("PORT " + server.port());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
