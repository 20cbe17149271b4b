package io.ossgw.nfs.v4;

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
import io.ossgw.nfs.NfsServer;
import io.ossgw.nfs.NfsServerBuilder;
import io.ossgw.nfs.export.Export;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * An NFSv4.1 system under test: the OSS emulator (V4 auth, the aliyun SDK for checks), an engine over it and an
 * {@link NfsServer} with {@code nfsV41(true)} on 127.0.0.1 (ephemeral port). {@link #restart} starts new ones over the
 * same emulator and state directory on the same port, with possibly other exports. Clients: {@link V4Client}.
 */
final class V4Gateway implements AutoCloseable {
  static final String BUCKET = "v4-test";
  static final String AK = "v4-ak";
  static final String SK = "v4-sk";

  final OssEmulator emu;
  final OSS sdk;
  final Path stateDir;
  private Function<Engine, List<Export>> exports;
  Engine engine;
  NfsServer server;
  private int port;

  /** @param exports the exports over a started engine */
  V4Gateway(Path stateDir, Function<Engine, List<Export>> exports) {
    this.stateDir = stateDir;
    this.exports = exports;
    this.emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials(AK, SK).authEnabled(true)
        .build().start();
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    this.sdk = OSSClientBuilder.create().endpoint(emu.endpoint()).credentialsProvider(
        new DefaultCredentialProvider(AK, SK)).clientConfiguration(conf).region("cn-hangzhou").build();
    start(0);
  }

  /** One export "/v4-test" of the whole bucket with the defaults. */
  static V4Gateway simple(Path stateDir) {
    return new V4Gateway(stateDir, e -> List.of(Export.builder("/" + BUCKET, e.fileSystem()).build()));
  }

  private void start(int p) {
    MountOptions o = MountOptions.parse(List.of("url=" + emu.endpoint(), "retries=2"));
    engine = Engine.start(EngineConfig.fromOptions(BUCKET, "", o, new Credentials(AK, SK), 1000, 1000,
        stateDir.resolve("engine")));
    NfsServerBuilder b = NfsServer.builder().bind("127.0.0.1").port(p).stateDir(stateDir.resolve("nfs"))
        .nfsV41(true);
    exports.apply(engine).forEach(b::export);
    server = b.build().start();
    this.port = server.port();
  }

  int port() {
    return port;
  }

  /** Stops server and engine, then starts new ones on the same port with other exports. */
  void restart(Function<Engine, List<Export>> newExports) {
    this.exports = newExports;
    server.stop();
    engine.close();
    start(port);
  }

  /**
   * Puts an object as another client and announces it to the engine, as a gateway of the same cluster does (issue 23):
   * the tests share one engine, and an unannounced object may stay hidden while its directory's listing is cached
   * (SEMANTICS.md "Caches").
   */
  void put(String key, String content) {
    sdk.putObject(BUCKET, key, new java.io.ByteArrayInputStream(content.getBytes()));
    engine.invalidate("/" + key, false);
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
