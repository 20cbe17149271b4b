package io.ossgw.nfs;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.nfs.export.Export;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The system under test: the OSS emulator (V4 auth, the real aliyun SDK in between), an engine over it and an
 * {@link NfsServer} on 127.0.0.1 with an ephemeral port. {@link #restart} stops server and engine and starts new ones
 * over the same emulator and state directory, on the same port.
 */
final class NfsGateway implements AutoCloseable {
  static final String BUCKET = "nfs-test";
  static final String AK = "nfs-ak";
  static final String SK = "nfs-sk";

  final OssEmulator emu;
  final OSS sdk;
  final Path stateDir;
  private Function<Engine, List<Export>> exports;
  private final List<String> options;
  /** How long an NFS open handle lives without calls (pending creates wait that long for their upload). */
  private java.time.Duration openIdle = java.time.Duration.ofMillis(500);
  /** How long a blocking NLM LOCK waits on the server. */
  private java.time.Duration lockWait = java.time.Duration.ofSeconds(4);
  private io.ossgw.core.lock.LockTable locks;
  /** More NFS server settings (e.g. NFSv4.1 on a test clock), applied at every (re)start. */
  private java.util.function.Consumer<NfsServerBuilder> serverOptions = b -> {};
  Engine engine;
  NfsServer server;
  private int port;

  /**
   * @param dataDir emulator storage directory, or null for memory
   * @param exports the exports over a started engine
   */
  NfsGateway(Path stateDir, Path dataDir, Function<Engine, List<Export>> exports, String... options) {
    this.stateDir = stateDir;
    this.exports = exports;
    this.options = List.of(options);
    OssEmulator.Builder eb = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials(AK, SK)
        .authEnabled(true);
    if (dataDir != null) {
      eb.dataDir(dataDir);
    }
    this.emu = eb.build().start();
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    this.sdk = OSSClientBuilder.create().endpoint(emu.endpoint()).credentialsProvider(new DefaultCredentialProvider(AK, SK))
        .clientConfiguration(conf).region("cn-hangzhou").build();
    start(0);
  }

  /**
   * One export of the whole bucket whose open handles live {@code openIdle} without calls (restarted with it), with
   * engine {@code options}.
   */
  static NfsGateway withOpenIdle(Path stateDir, java.time.Duration openIdle, String... options) {
    NfsGateway g = simple(stateDir, options);
    g.openIdle = openIdle;
    g.restart();
    return g;
  }

  /** One export of the whole bucket whose NLM uses {@code locks} and waits {@code lockWait} (restarted with them). */
  static NfsGateway withLocks(Path stateDir, java.time.Duration lockWait, io.ossgw.core.lock.LockTable locks) {
    NfsGateway g = simple(stateDir);
    g.lockWait = lockWait;
    g.locks = locks;
    g.restart();
    return g;
  }

  /** One export of the whole bucket, the NFS server built with {@code options} too (restarted with them). */
  static NfsGateway withServer(Path stateDir, java.util.function.Consumer<NfsServerBuilder> options) {
    NfsGateway g = simple(stateDir);
    g.serverOptions = options;
    g.restart();
    return g;
  }

  /** One export "/nfs-test" of the whole bucket with the defaults. */
  static NfsGateway simple(Path stateDir, String... options) {
    return new NfsGateway(stateDir, null, e -> List.of(Export.builder("/" + BUCKET, e.fileSystem()).build()), options);
  }

  private void start(int port) {
    List<String> o = new ArrayList<>();
    o.add("url=" + emu.endpoint());
    o.add("retries=2");
    o.addAll(options);
    EngineConfig c = EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(o), new Credentials(AK, SK), 1000, 1000,
        stateDir.resolve("engine"));
    engine = Engine.start(c);
    NfsServerBuilder b = NfsServer.builder().bind("127.0.0.1").port(port).stateDir(stateDir.resolve("nfs"))
        .openIdleTimeout(openIdle).lockWait(lockWait);
    if (locks != null) {
      b.locks(locks);
    }
    exports.apply(engine).forEach(b::export);
    serverOptions.accept(b);
    server = b.build().start();
    this.port = server.port();
  }

  int port() {
    return port;
  }

  /** A libnfs/nfs-rs URL of a path under the export (no port 111). */
  String url(String path) {
    return "nfs://127.0.0.1/" + BUCKET + path + "?version=3&nfsport=" + port() + "&mountport=" + port();
  }

  /** Stops the NFS server and the engine, then starts new ones on the same port with other exports. */
  void restart(Function<Engine, List<Export>> newExports) {
    this.exports = newExports;
    restart();
  }

  /** Stops the NFS server and the engine, then starts new ones on the same port (a gateway restart). */
  void restart() {
    server.stop();
    engine.close();
    start(port);
  }

  byte[] object(String key) {
    try (var o = sdk.getObject(BUCKET, key)) {
      return o.getObjectContent().readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (server != null) {
      server.stop();
    }
    if (engine != null) {
      engine.close();
    }
    sdk.shutdown();
    emu.close();
  }
}
