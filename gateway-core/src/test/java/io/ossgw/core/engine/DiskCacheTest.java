package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code use_cache=DIR}: reads served from the local data cache instead of GETs, across a restart; entries of a changed
 * ETag dropped; LRU eviction within {@code ensure_diskfree}; {@code del_cache} and {@code check_cache_dir_exist}.
 */
class DiskCacheTest extends GatewayFixture {
  @TempDir Path cacheDir;
  final List<Engine> engines = new ArrayList<>();

  /** Runs before the fixture closes the gateway. */
  @AfterEach
  void closeEngines() {
    engines.forEach(Engine::close);
  }

  private Engine engine(String... options) {
    List<String> o = new ArrayList<>(List.of("use_cache=" + cacheDir));
    o.addAll(List.of(options));
    Engine e = Engine.start(gw.config("", o.toArray(String[]::new)));
    engines.add(e);
    return e;
  }

  private void restart(Engine e) {
    e.close();
    engines.remove(e);
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private void putForeign(String key, byte[] data) {
    gw.sdk.putObject(BUCKET, key, new ByteArrayInputStream(data));
  }

  private static long filesUnder(Path dir) throws Exception {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void readsComeFromTheCacheAfterARestart() {
    byte[] data = random(900 * 1024, 1);
    putForeign("cached.bin", data);
    Engine first = engine();
    assertThat(readFile(first.fileSystem(), "/cached.bin")).isEqualTo(data);
    assertThat(first.diskCache().usedBytes()).isEqualTo(data.length);
    restart(first);

    Engine second = engine();
    VirtualFileSystem fs = second.fileSystem();
    fs.getattr("/cached.bin");
    gw.resetCounters();
    assertThat(readFile(fs, "/cached.bin")).isEqualTo(data);
    assertThat(gw.count("GetObject")).as("served from " + cacheDir).isZero();
    assertThat(second.diskCache().hits()).isPositive();
  }

  @Test
  void anEntryWhoseEtagChangedIsDroppedAndTheNewVersionRead() {
    putForeign("v.bin", random(300 * 1024, 2));
    Engine first = engine();
    readFile(first.fileSystem(), "/v.bin");
    restart(first);
    byte[] v2 = random(200 * 1024, 3);
    putForeign("v.bin", v2); // changed by another client while the gateway was down

    Engine second = engine();
    VirtualFileSystem fs = second.fileSystem();
    gw.resetCounters();
    assertThat(readFile(fs, "/v.bin")).isEqualTo(v2);
    assertThat(gw.count("GetObject")).isPositive();
    assertThat(second.diskCache().usedBytes()).isEqualTo(v2.length);
    gw.resetCounters();
    assertThat(readFile(fs, "/v.bin")).isEqualTo(v2);
    assertThat(gw.count("GetObject")).isZero();
  }

  @Test
  void writingThroughTheGatewayDropsTheEntry() {
    Engine e = engine();
    VirtualFileSystem fs = e.fileSystem();
    writeFile(fs, "/w.bin", random(200 * 1024, 4));
    readFile(fs, "/w.bin");
    assertThat(e.diskCache().entryCount()).isEqualTo(1);
    byte[] v2 = random(200 * 1024, 5); // same size: writeFile overwrites in place without truncating
    writeFile(fs, "/w.bin", v2);
    assertThat(e.diskCache().entryCount()).isZero();
    assertThat(readFile(fs, "/w.bin")).isEqualTo(v2);
  }

  @Test
  void leastRecentlyUsedEntriesAreEvictedToKeepEnsureDiskfree() {
    // fake_diskfree=3 MB with ensure_diskfree=1 MB leaves 2 MB for cached data: two 700 KB files fit, a third does not
    byte[] a = random(700 * 1024, 6);
    byte[] b = random(700 * 1024, 7);
    byte[] c = random(700 * 1024, 8);
    putForeign("a", a);
    putForeign("b", b);
    putForeign("c", c);
    Engine e = engine("fake_diskfree=3", "ensure_diskfree=1");
    VirtualFileSystem fs = e.fileSystem();
    readFile(fs, "/a");
    readFile(fs, "/b");
    readFile(fs, "/a"); // a is now more recently used than b
    readFile(fs, "/c");
    assertThat(e.diskCache().usedBytes()).isLessThanOrEqualTo(2L * 1024 * 1024).isEqualTo(2L * 700 * 1024);
    gw.resetCounters();
    assertThat(readFile(fs, "/a")).isEqualTo(a);
    assertThat(readFile(fs, "/c")).isEqualTo(c);
    assertThat(gw.count("GetObject")).as("a and c are cached").isZero();
    assertThat(readFile(fs, "/b")).isEqualTo(b);
    assertThat(gw.count("GetObject")).as("b was evicted").isPositive();
  }

  @Test
  void freeSpaceRatioKeepsThatShareOfTheDiskFree() {
    // fake_diskfree=2 MB as the disk, free_space_ratio=50: 1 MB may hold cached data, one 700 KB file at a time
    putForeign("p", random(700 * 1024, 11));
    putForeign("q", random(700 * 1024, 12));
    Engine e = engine("fake_diskfree=2", "free_space_ratio=50");
    readFile(e.fileSystem(), "/p");
    readFile(e.fileSystem(), "/q");
    assertThat(e.diskCache().entryCount()).isEqualTo(1);
    assertThat(e.diskCache().usedBytes()).isEqualTo(700 * 1024);
    gw.resetCounters();
    readFile(e.fileSystem(), "/q");
    assertThat(gw.count("GetObject")).as("q, the most recent, is the one kept").isZero();
  }

  @Test
  void delCacheEmptiesTheCacheAtStartAndAtUnmount() throws Exception {
    putForeign("d.bin", random(100 * 1024, 9));
    Engine keep = engine();
    readFile(keep.fileSystem(), "/d.bin");
    restart(keep);
    assertThat(filesUnder(cacheDir.resolve(BUCKET))).as("data + index").isGreaterThanOrEqualTo(2);

    Engine del = engine("del_cache");
    assertThat(del.diskCache().entryCount()).as("deleted at start").isZero();
    gw.resetCounters();
    readFile(del.fileSystem(), "/d.bin");
    assertThat(gw.count("GetObject")).isPositive();
    restart(del);
    assertThat(filesUnder(cacheDir.resolve(BUCKET))).as("deleted at unmount").isZero();
  }

  @Test
  void checkCacheDirExistRefusesAMissingDirectory() {
    Path missing = cacheDir.resolve("not-there");
    assertThatThrownBy(() -> Engine.start(gw.config("", "use_cache=" + missing, "check_cache_dir_exist")))
        .isInstanceOf(EngineException.class).hasMessageContaining("not-there");
    Engine e = Engine.start(gw.config("", "use_cache=" + missing));
    engines.add(e);
    assertThat(Files.isDirectory(missing)).isTrue();
  }

  @Test
  void theDefaultReserveIsRoomForOneFileUpload() {
    assertThat(gw.config("", "use_cache=" + cacheDir).diskCache().ensureDiskfree()).isEqualTo(50L << 20);
    assertThat(gw.config("", "use_cache=" + cacheDir, "multipart_size=20", "parallel_count=3").diskCache()
        .ensureDiskfree()).isEqualTo(60L << 20);
    assertThat(gw.config("", "use_cache=" + cacheDir, "ensure_diskfree=0").diskCache().ensureDiskfree()).isZero();
    assertThat(gw.config("").diskCache()).as("use_cache off").isNull();
    assertThat(gw.config("", "use_cache=" + cacheDir, "direct_read").diskCache()).as("direct_read uses no disk").isNull();
  }

  @Test
  void aSecondEngineOnTheSameCacheRunsWithoutIt() {
    putForeign("two.bin", random(1000, 10));
    Engine first = engine();
    Engine second = engine();
    assertThat(first.diskCache()).isNotNull();
    assertThat(second.diskCache()).as("index held by the first").isNull();
    assertThat(readFile(second.fileSystem(), "/two.bin")).hasSize(1000);
  }

  @Test
  void ensureDiskfreeAndFreeSpaceRatioAreExclusive() {
    assertThatThrownBy(() -> gw.config("", "use_cache=" + cacheDir, "ensure_diskfree=10", "free_space_ratio=5"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("together");
  }
}
