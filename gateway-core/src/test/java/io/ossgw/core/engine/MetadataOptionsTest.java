package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The ossfs metadata options as ossfs 1.91 documents them (reference/ossfs-compat.md §3.3, §3.5, §4):
 * {@code stat_cache_expire} (TTL from insert, -1 never), {@code stat_cache_interval_expire} (sliding),
 * {@code disable_noobj_cache}, {@code complement_stat}, {@code readdir_optimize} and {@code symlink_in_meta} in
 * listings. The cache clock is an injected ticker: no sleeps.
 */
class MetadataOptionsTest extends GatewayFixture {
  final AtomicLong nanos = new AtomicLong();

  private void advance(long seconds) {
    nanos.addAndGet(Duration.ofSeconds(seconds).toNanos());
  }

  private void putForeign(String key, String body) {
    gw.sdk.putObject(BUCKET, key, new ByteArrayInputStream(utf8(body)));
  }

  /** getattr's size, and how many HEADs it cost. */
  private long[] sizeAndHeads(VirtualFileSystem fs, String path) {
    gw.resetCounters();
    long size = fs.getattr(path).size();
    return new long[] {size, gw.count("HeadObject")};
  }

  @Test
  void statCacheExpireCountsFromInsertNotFromTheLastHit() {
    putForeign("f", "1");
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=60");
    assertThat(sizeAndHeads(fs, "/f")).containsExactly(1, 1);
    putForeign("f", "22"); // changed by another client
    advance(40);
    assertThat(sizeAndHeads(fs, "/f")).as("cached 40 s after insert").containsExactly(1, 0);
    advance(21);
    assertThat(sizeAndHeads(fs, "/f")).as("61 s after insert, although hit 21 s ago").containsExactly(2, 1);
  }

  @Test
  void statCacheIntervalExpireSlidesWithEveryHit() {
    putForeign("f", "1");
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_interval_expire=60");
    assertThat(sizeAndHeads(fs, "/f")).containsExactly(1, 1);
    putForeign("f", "22");
    for (int i = 0; i < 4; i++) {
      advance(40);
      assertThat(sizeAndHeads(fs, "/f")).as("hit every 40 s: never expires").containsExactly(1, 0);
    }
    advance(61);
    assertThat(sizeAndHeads(fs, "/f")).as("61 s without a hit").containsExactly(2, 1);
  }

  @Test
  void statCacheExpireMinusOneNeverExpires() {
    putForeign("f", "1");
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=-1");
    fs.getattr("/f");
    putForeign("f", "22");
    advance(Duration.ofDays(30).toSeconds());
    assertThat(sizeAndHeads(fs, "/f")).containsExactly(1, 0);
  }

  @Test
  void missingNamesAreCachedUnlessDisableNoobjCache() {
    VirtualFileSystem cached = gw.mountWithTicker(nanos::get);
    assertThat(missingCost(cached)).isEqualTo(2); // HEAD + LIST
    assertThat(missingCost(cached)).isZero();
    putForeign("nope", "now here");
    assertThat(missingCost(cached)).as("still negative within the TTL").isZero();
    advance(901);
    assertThat(cached.getattr("/nope").size()).isEqualTo(8);

    VirtualFileSystem uncached = gw.mountWithTicker(nanos::get, "disable_noobj_cache");
    assertThat(missingCost(uncached, "/gone")).isEqualTo(2);
    assertThat(missingCost(uncached, "/gone")).as("every miss asks OSS again").isEqualTo(2);
  }

  private long missingCost(VirtualFileSystem fs) {
    return missingCost(fs, "/nope");
  }

  private long missingCost(VirtualFileSystem fs, String path) {
    gw.resetCounters();
    try {
      fs.getattr(path);
      return -1;
    } catch (FsException e) {
      assertThat(e.errno()).isEqualTo(Errno.ENOENT);
    }
    return gw.count("HeadObject") + gw.count("ListObjectsV2");
  }

  @Test
  void complementStatGivesObjectsWithoutMetadataReadableModes() {
    putForeign("plain", "x");
    putForeign("dir/inner", "y");
    ObjectMetadata noMode = new ObjectMetadata();
    noMode.setContentType("application/x-directory");
    gw.sdk.putObject(BUCKET, "marker/", new ByteArrayInputStream(new byte[0]), noMode);
    VirtualFileSystem fs = gw.mount("complement_stat");
    assertThat(fs.getattr("/plain").mode()).isEqualTo(0640);
    assertThat(fs.getattr("/dir").mode()).isEqualTo(0750);
    assertThat(fs.getattr("/marker").mode()).isEqualTo(0750);
    assertThat(fs.getattr("/marker").type()).isEqualTo(FileType.DIRECTORY);
  }

  @Test
  void symlinksOfBothFormsAreSymlinksInListingsWithAndWithoutReaddirOptimize() {
    VirtualFileSystem body = gw.mount();
    body.mkdir("/l", 0755, USER);
    body.symlink("to/body", "/l/body", USER);
    gw.mount("symlink_in_meta").symlink("to/meta", "/l/meta", USER);
    gw.closeEngines();
    for (String opts : new String[] {"", "readdir_optimize"}) {
      VirtualFileSystem fs = opts.isEmpty() ? gw.mountWithTicker(nanos::get) : gw.mountWithTicker(nanos::get, opts);
      Map<String, FileType> types = fs.readdir("/l").entries().stream()
          .collect(Collectors.toMap(DirEntry::name, e -> e.attr().type()));
      assertThat(types).as(opts).containsEntry("body", FileType.SYMLINK).containsEntry("meta", FileType.SYMLINK);
      assertThat(fs.readlink("/l/body")).isEqualTo("to/body");
      gw.resetCounters();
      assertThat(fs.readlink("/l/meta")).isEqualTo("to/meta");
      assertThat(gw.count("GetObject")).as("the metadata form needs no GET").isZero();
      gw.closeEngines();
    }
  }

  @Test
  void chmodUnderReaddirOptimizeKeepsTheMetadataTheListingDidNotShow() {
    ObjectMetadata m = new ObjectMetadata();
    m.setUserMetadata(Map.of("mode", Integer.toString(0100600), "uid", "4242", "gid", "4343", "mtime", "1577934245"));
    gw.sdk.putObject(BUCKET, "keep/f", new ByteArrayInputStream(utf8("abc")), m);
    VirtualFileSystem fs = gw.mount("readdir_optimize");
    fs.readdir("/keep");
    fs.setattr("/keep/f", io.ossgw.core.vfs.SetAttr.mode(0644), null, USER);
    Map<String, String> after = gw.sdk.getObjectMetadata(BUCKET, "keep/f").getUserMetadata();
    assertThat(after).containsEntry("mode", Integer.toString(0100644)).containsEntry("uid", "4242")
        .containsEntry("gid", "4343").containsEntry("mtime", "1577934245");
    assertThat(fs.getattr("/keep/f").uid()).isEqualTo(4242);

    gw.sdk.putObject(BUCKET, "keep/g", new ByteArrayInputStream(utf8("abc")), m);
    VirtualFileSystem cold = gw.mount("readdir_optimize");
    cold.readdir("/keep");
    io.ossgw.core.vfs.FileHandle h = cold.open("/keep/g", io.ossgw.core.vfs.OpenFlags.READ_WRITE, USER);
    cold.write(h, 3, java.nio.ByteBuffer.wrap(utf8("def")));
    cold.release(h);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "keep/g").getUserMetadata())
        .containsEntry("mode", Integer.toString(0100600)).containsEntry("uid", "4242").containsEntry("gid", "4343");
  }

  @Test
  void readdirOptimizeShowsForeignObjectsWithOssfsDefaultsAndNoHead() {
    ObjectMetadata m = new ObjectMetadata();
    m.setUserMetadata(Map.of("mode", Integer.toString(0100600), "uid", "4242"));
    gw.sdk.putObject(BUCKET, "ro/with-meta", new ByteArrayInputStream(utf8("abc")), m);
    VirtualFileSystem fs = gw.mount("readdir_optimize");
    fs.getattr("/ro");
    gw.resetCounters();
    DirEntry e = fs.readdir("/ro").entries().get(0);
    assertThat(gw.count("HeadObject")).isZero();
    // listing-only attributes, as ossfs's readdir_optimize shows them: 0640 and the mounting user
    assertThat(e.attr().mode()).isEqualTo(0640);
    assertThat(e.attr().uid()).isEqualTo(1000);
    assertThat(e.attr().size()).isEqualTo(3);
  }

  /**
   * With readdir_optimize a listed file's first GET brings its {@code x-oss-meta-*} headers: stat shows the real mode
   * and owner afterwards, and a chmod needs no HEAD (issue 14 item 4: the object's own metadata on first open).
   */
  @Test
  void readdirOptimizeLearnsTheRealAttributesFromTheFirstGet() {
    ObjectMetadata m = new ObjectMetadata();
    m.setUserMetadata(Map.of("mode", Integer.toString(0100750), "uid", "4242", "gid", "4343", "mtime", "1577934245"));
    gw.sdk.putObject(BUCKET, "ro/with-meta", new ByteArrayInputStream(utf8("abc")), m);
    VirtualFileSystem fs = gw.mount("readdir_optimize");
    fs.readdir("/ro");
    assertThat(fs.getattr("/ro/with-meta").mode()).as("listing defaults before the read").isEqualTo(0640);
    gw.resetCounters();
    assertThat(TestGateway.readFile(fs, "/ro/with-meta")).isEqualTo(utf8("abc"));
    io.ossgw.core.vfs.FileAttr a = fs.getattr("/ro/with-meta");
    assertThat(a.mode()).isEqualTo(0750);
    assertThat(a.uid()).isEqualTo(4242);
    assertThat(a.gid()).isEqualTo(4343);
    assertThat(a.mtime().getEpochSecond()).isEqualTo(1577934245L);
    fs.setattr("/ro/with-meta", io.ossgw.core.vfs.SetAttr.mode(0700), null, USER);
    assertThat(gw.count("HeadObject")).as("no HEAD for the read, the stat or the chmod").isZero();
    assertThat(gw.count("GetObject")).isEqualTo(1);
    assertThat(gw.count("CopyObject")).isEqualTo(1);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "ro/with-meta").getUserMetadata())
        .containsEntry("mode", Integer.toString(0100700)).containsEntry("uid", "4242").containsEntry("gid", "4343");
  }
}
