package io.ossgw.core.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.emulator.OssEmulator;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The observer SPI against a real engine over the OSS emulator: every request the emulator received is reported once
 * with its operation and outcome, retries are reported, front-end views count bytes, and cache lookups are seen.
 */
class EngineObserverTest {
  static final String BUCKET = "observe-test";
  static final Caller USER = new Caller(1000, 1000, new int[0]);

  /** Counts every event by a string key. */
  static final class Recorder implements EngineObserver {
    final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void add(String key, long n) {
      counts.computeIfAbsent(key, k -> new LongAdder()).add(n);
    }

    long get(String key) {
      LongAdder a = counts.get(key);
      return a == null ? 0 : a.sum();
    }

    /** Requests of an operation with any outcome. */
    long requests(String op) {
      return counts.entrySet().stream().filter(e -> e.getKey().startsWith("req " + op + " "))
          .mapToLong(e -> e.getValue().sum()).sum();
    }

    @Override
    public void ossRequest(String operation, String outcome, long nanos) {
      assertThat(nanos).isNotNegative();
      add("req " + operation + " " + outcome, 1);
    }

    @Override
    public void ossRetry(String operation) {
      add("retry " + operation, 1);
    }

    @Override
    public void cacheLookups(String cache, boolean hit, int count) {
      add(cache + (hit ? " hit" : " miss"), count);
    }

    @Override
    public void cacheEviction(String cache) {
      add(cache + " eviction", 1);
    }
  }

  OssEmulator emu;
  Recorder rec = new Recorder();
  Engine engine;

  @BeforeEach
  void start(@TempDir Path state) {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials("ak", "sk").authEnabled(true)
        .build().start();
    engine = Engine.start(config(state), rec);
  }

  EngineConfig config(Path state) {
    return EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(List.of("url=" + emu.endpoint(), "retries=3")),
        new Credentials("ak", "sk"), 1000, 1000, state);
  }

  @AfterEach
  void stop() {
    engine.close();
    emu.close();
  }

  @Test
  void everyRequestTheEmulatorSawIsReportedOnce() {
    VirtualFileSystem fs = engine.fileSystem("nfs");
    byte[] data = new byte[300 * 1024];
    new java.util.Random(7).nextBytes(data);
    write(fs, "/a.bin", data);
    assertThat(read(fs, "/a.bin")).isEqualTo(data);
    fs.mkdir("/d", 0755, USER);
    fs.readdir("/");
    fs.unlink("/a.bin");

    for (String op : List.of("ListObjectsV2", "HeadObject", "GetObject", "PutObject", "DeleteObject")) {
      assertThat(rec.requests(op)).as(op).isEqualTo(emu.counters().get(op));
    }
    assertThat(rec.get("req ListObjectsV2 ok")).isPositive(); // the bucket check at start
    assertThat(rec.get("req PutObject ok")).isEqualTo(emu.counters().get("PutObject")).isPositive();
    assertThat(rec.get("req DeleteObject ok")).isEqualTo(1);
  }

  @Test
  void retriesAndTheirFailedAttemptsAreReported() {
    write(engine.fileSystem("fuse"), "/r", new byte[] {1, 2, 3});
    emu.faults().failNext(2, 503, "SlowDown", Set.of("GetObject"));
    try (Engine cold = Engine.start(config(null), rec)) { // cold caches: the read needs GetObject
      assertThat(read(cold.fileSystem("fuse"), "/r")).containsExactly(1, 2, 3);
    }
    assertThat(rec.get("retry GetObject")).isEqualTo(2);
    assertThat(rec.get("req GetObject transient")).isEqualTo(2);
    assertThat(rec.get("req GetObject ok")).isEqualTo(1);
  }

  @Test
  void frontEndViewsCountTheirOwnBytes() {
    VirtualFileSystem nfs = engine.fileSystem("nfs");
    VirtualFileSystem smb = engine.fileSystem("smb");
    assertThat(engine.fileSystem("nfs")).isSameAs(nfs);
    write(nfs, "/f", new byte[5000]);
    assertThat(read(smb, "/f")).hasSize(5000);
    assertThat(read(smb, "/f")).hasSize(5000);
    Map<String, FrontEndFileSystem> views = new ConcurrentHashMap<>();
    engine.frontEnds().forEach(v -> views.put(v.frontEnd(), v));
    assertThat(views.keySet()).containsExactlyInAnyOrder("nfs", "smb");
    assertThat(views.get("nfs").writtenBytes()).isEqualTo(5000);
    assertThat(views.get("nfs").readBytes()).isZero();
    assertThat(views.get("smb").readBytes()).isEqualTo(10000);
    assertThat(views.get("smb").writtenBytes()).isZero();
  }

  @Test
  void statCacheHitsNeedNoRequest() {
    VirtualFileSystem fs = engine.fileSystem("fuse");
    write(fs, "/s", new byte[10]);
    fs.getattr("/s");
    long hits = rec.get("stat hit");
    long misses = rec.get("stat miss");
    long heads = emu.counters().get("HeadObject");
    fs.getattr("/s");
    assertThat(rec.get("stat hit")).isEqualTo(hits + 1);
    assertThat(rec.get("stat miss")).isEqualTo(misses);
    assertThat(emu.counters().get("HeadObject")).isEqualTo(heads);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> fs.getattr("/never-there"))
        .isInstanceOf(io.ossgw.core.vfs.FsException.class);
    assertThat(rec.get("stat miss")).isGreaterThan(misses);
  }

  static void write(VirtualFileSystem fs, String path, byte[] data) {
    FileHandle h = fs.create(path, 0644, OpenFlags.READ_WRITE, false, USER);
    try {
      fs.write(h, 0, ByteBuffer.wrap(data));
      fs.flush(h);
    } finally {
      fs.release(h);
    }
  }

  static byte[] read(VirtualFileSystem fs, String path) {
    FileHandle h = fs.open(path, OpenFlags.READ_ONLY, USER);
    try {
      ByteBuffer buf = ByteBuffer.allocate((int) fs.getattr(path).size());
      while (buf.hasRemaining()) {
        int n = fs.read(h, buf.position(), buf.slice());
        if (n <= 0) {
          break;
        }
        buf.position(buf.position() + n);
      }
      return buf.array();
    } finally {
      fs.release(h);
    }
  }
}
