package io.ossgw.core.engine;

import com.aliyun.oss.ClientBuilderConfiguration;
import com.aliyun.oss.OSS;
import com.aliyun.oss.OSSClientBuilder;
import com.aliyun.oss.common.auth.DefaultCredentialProvider;
import com.aliyun.oss.common.comm.SignVersion;
import com.aliyun.oss.model.ListObjectsV2Request;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An engine over the OSS emulator (memory-backed, V4 auth on), plus a raw SDK client to check what landed in the
 * bucket and the emulator's request counters. Tests may start several engines over one emulator (a remount).
 */
final class TestGateway implements AutoCloseable {
  static final String BUCKET = "engine-test";
  static final String AK = "test-ak";
  static final String SK = "test-sk";
  static final Caller USER = new Caller(1000, 1000, new int[0]);

  final OssEmulator emu;
  final OSS sdk;
  final Path stateDir;
  private final List<Engine> engines = new ArrayList<>();

  TestGateway(Path stateDir) {
    this.stateDir = stateDir;
    this.emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials(AK, SK).authEnabled(true)
        .build().start();
    ClientBuilderConfiguration conf = new ClientBuilderConfiguration();
    conf.setSignatureVersion(SignVersion.V4);
    this.sdk = OSSClientBuilder.create().endpoint(emu.endpoint()).credentialsProvider(new DefaultCredentialProvider(AK, SK))
        .clientConfiguration(conf).region("cn-hangzhou").build();
  }

  EngineConfig config(String prefix, String... options) {
    List<String> o = new ArrayList<>();
    o.add("url=" + emu.endpoint());
    o.add("retries=2");
    o.addAll(List.of(options));
    return EngineConfig.fromOptions(BUCKET, prefix, MountOptions.parse(o), new Credentials(AK, SK), 1000, 1000, stateDir);
  }

  /** A new engine (cold caches) over the bucket root. */
  VirtualFileSystem mount(String... options) {
    return mountAt("", options);
  }

  VirtualFileSystem mountAt(String prefix, String... options) {
    Engine e = Engine.start(config(prefix, options));
    engines.add(e);
    return e.fileSystem();
  }

  /** A new engine whose OSS client passes through {@code wrap} on every attempt (requests seen in the order sent). */
  VirtualFileSystem mountThrough(java.util.function.UnaryOperator<io.ossgw.core.store.ObjectStore> wrap,
      String... options) {
    Engine e = Engine.start(config("", options), io.ossgw.core.observe.EngineObserver.NONE, wrap,
        java.util.function.UnaryOperator.identity());
    engines.add(e);
    return e.fileSystem();
  }

  VirtualFileSystem mountWithTicker(Ticker ticker, String... options) {
    EngineConfig c = config("", options);
    Engine e = Engine.over(c, new io.ossgw.core.store.RetryingObjectStore(
        new io.ossgw.core.store.aliyun.AliyunObjectStore(c), 2, 10, 100, null), ticker);
    engines.add(e);
    return e.fileSystem();
  }

  /** Closes every engine started so far (a clean unmount; frees the metadata store for the next one). */
  void closeEngines() {
    for (Engine e : engines) {
      e.close();
    }
    engines.clear();
  }

  long count(String op) {
    return emu.counters().get(op);
  }

  void resetCounters() {
    emu.counters().reset();
  }

  /** Writes {@code data} at {@code start} in 128 KiB writes, the size of libfuse 2's requests. */
  static void writeAt(VirtualFileSystem fs, FileHandle h, long start, byte[] data) {
    for (int off = 0; off < data.length; off += 128 * 1024) {
      fs.write(h, start + off, ByteBuffer.wrap(data, off, Math.min(128 * 1024, data.length - off)));
    }
  }

  static void writeFile(VirtualFileSystem fs, String path, byte[] data) {
    FileHandle h = fs.create(path, 0644, OpenFlags.READ_WRITE, false, USER);
    try {
      writeAt(fs, h, 0, data);
      fs.flush(h);
    } finally {
      fs.release(h);
    }
  }

  static byte[] readFile(VirtualFileSystem fs, String path) {
    FileHandle h = fs.open(path, OpenFlags.READ_ONLY, USER);
    try {
      long size = fs.getattr(path).size();
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      long off = 0;
      while (buf.hasRemaining()) {
        ByteBuffer slice = buf.slice(buf.position(), Math.min(128 * 1024, buf.remaining()));
        int n = fs.read(h, off, slice);
        if (n <= 0) {
          break;
        }
        buf.position(buf.position() + n);
        off += n;
      }
      return java.util.Arrays.copyOf(buf.array(), buf.position());
    } finally {
      fs.release(h);
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Every key in the bucket that starts with {@code prefix}, sorted (ListObjectsV2 through the SDK, all pages). */
  SortedSet<String> keys(String prefix) {
    SortedSet<String> out = new TreeSet<>();
    String token = null;
    do {
      var r = sdk.listObjectsV2(new ListObjectsV2Request(BUCKET).withPrefix(prefix).withContinuationToken(token)
          .withMaxKeys(1000));
      r.getObjectSummaries().forEach(o -> out.add(o.getKey()));
      token = r.getNextContinuationToken();
    } while (token != null);
    return out;
  }

  byte[] objectBytes(String key) {
    try (var o = sdk.getObject(BUCKET, key)) {
      return o.getObjectContent().readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    for (Engine e : engines) {
      e.close();
    }
    sdk.shutdown();
    emu.close();
  }
}
