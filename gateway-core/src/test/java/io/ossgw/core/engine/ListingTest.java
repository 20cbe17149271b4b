package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirListing;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Directory listings: paging, attributes without a HEAD per entry, chmod kept, cache lifetime. */
class ListingTest extends GatewayFixture {
  @Test
  void coldListingOfFilesWrittenByTheGatewayNeedsNoHeadAndKeepsChmod() {
    VirtualFileSystem fs = gw.mount("list_object_max_keys=100");
    fs.mkdir("/d", 0755, USER);
    for (int i = 0; i < 250; i++) {
      writeFile(fs, "/d/f" + i, utf8("x".repeat(i)));
    }
    fs.setattr("/d/f7", SetAttr.mode(0600), null, USER);
    fs.setattr("/d/f8", SetAttr.owner(42, 43), null, USER);
    gw.closeEngines();
    VirtualFileSystem cold = gw.mount("list_object_max_keys=100"); // new engine, same state dir
    cold.getattr("/d"); // the kernel looks the directory up before it lists it
    gw.resetCounters();
    DirListing l = cold.readdir("/d");
    assertThat(l.entries()).hasSize(250);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3); // ceil(250 / 100)
    assertThat(gw.count("HeadObject")).isZero();
    Map<String, DirEntry> byName = new HashMap<>();
    l.entries().forEach(e -> byName.put(e.name(), e));
    assertThat(byName.get("f7").attr().mode()).isEqualTo(0600);
    assertThat(byName.get("f8").attr().uid()).isEqualTo(42);
    assertThat(byName.get("f100").attr().size()).isEqualTo(100);
    for (int i = 0; i < 250; i++) {
      cold.getattr("/d/f" + i); // the kernel's LOOKUP after readdir: served from the listing
    }
    assertThat(gw.count("HeadObject")).isZero();
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3);
  }

  @Test
  void foreignObjectsAreHeadedOnceThenRemembered() {
    for (int i = 0; i < 30; i++) {
      gw.sdk.putObject(BUCKET, "ext/o" + i, new ByteArrayInputStream(utf8("o" + i)));
    }
    VirtualFileSystem fs = gw.mount();
    fs.getattr("/ext");
    gw.resetCounters();
    assertThat(fs.readdir("/ext").entries()).hasSize(30);
    assertThat(gw.count("HeadObject")).isEqualTo(30);
    gw.closeEngines();
    VirtualFileSystem again = gw.mount();
    again.getattr("/ext");
    gw.resetCounters();
    assertThat(again.readdir("/ext").entries()).hasSize(30);
    assertThat(gw.count("HeadObject")).isZero();
  }

  @Test
  void readdirOptimizeNeverHeadsFiles() {
    for (int i = 0; i < 20; i++) {
      gw.sdk.putObject(BUCKET, "opt/o" + i, new ByteArrayInputStream(utf8("content")));
    }
    VirtualFileSystem fs = gw.mount("readdir_optimize");
    fs.getattr("/opt");
    gw.resetCounters();
    assertThat(fs.readdir("/opt").entries()).hasSize(20).allSatisfy(e -> assertThat(e.attr().mode()).isEqualTo(0640));
    assertThat(gw.count("HeadObject")).isZero();
    fs.setattr("/opt/o1", SetAttr.mode(0604), null, USER); // chmod still works, unlike ossfs's readdir_optimize
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "opt/o1").getUserMetadata()).containsEntry("mode", Integer.toString(0100604));
  }

  @Test
  void aMissingNameInAListedDirectoryCostsNoRequest() {
    VirtualFileSystem fs = gw.mount();
    fs.mkdir("/d", 0755, USER);
    writeFile(fs, "/d/present", utf8("p"));
    fs.readdir("/d");
    gw.resetCounters();
    try {
      fs.getattr("/d/absent");
    } catch (FsException e) {
      assertThat(e.errno()).isEqualTo(Errno.ENOENT);
    }
    assertThat(gw.emu.counters().total()).isZero();
  }

  @Test
  void listingIsCachedForTheTtlAndSeesExternalChangesAfterIt() {
    AtomicLong nanos = new AtomicLong();
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=60");
    fs.mkdir("/t", 0755, USER);
    writeFile(fs, "/t/a", utf8("a"));
    assertThat(fs.readdir("/t").entries()).hasSize(1);
    gw.sdk.putObject(BUCKET, "t/external", new ByteArrayInputStream(utf8("e")));
    gw.resetCounters();
    assertThat(fs.readdir("/t").entries()).hasSize(1);
    assertThat(gw.count("ListObjectsV2")).isZero();
    nanos.addAndGet(Duration.ofSeconds(61).toNanos());
    fs.getattr("/t"); // expired too: the kernel looks it up again (HEAD t, LIST t/ max-keys=1, HEAD t/)
    gw.resetCounters();
    assertThat(fs.readdir("/t").entries()).hasSize(2);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
  }

  @Test
  void aFileBeingWrittenIsListed() {
    VirtualFileSystem fs = gw.mount();
    fs.mkdir("/w", 0755, USER);
    fs.readdir("/w");
    var h = fs.create("/w/inflight", 0644, io.ossgw.core.vfs.OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, java.nio.ByteBuffer.wrap(utf8("12345")));
    DirListing l = fs.readdir("/w");
    assertThat(l.entries()).extracting(DirEntry::name).containsExactly("inflight");
    assertThat(l.entries().get(0).attr().size()).isEqualTo(5);
    fs.release(h);
  }

  @Test
  void aDirectoryRenamedIntoAListedParentIsListedAndFoundWithoutRequests() {
    VirtualFileSystem fs = gw.mount();
    fs.mkdir("/a", 0755, USER);
    fs.mkdir("/b", 0755, USER); // its (empty) listing is cached now
    fs.mkdir("/a/sub", 0750, USER);
    writeFile(fs, "/a/sub/inner", utf8("in"));
    assertThat(fs.readdir("/b").entries()).isEmpty();
    fs.rename("/a/sub", "/b/sub2");
    gw.resetCounters();
    assertThat(fs.readdir("/b").entries()).extracting(DirEntry::name).containsExactly("sub2");
    assertThat(fs.getattr("/b/sub2").mode()).isEqualTo(0750);
    assertThat(gw.count("HeadObject") + gw.count("ListObjectsV2")).isZero();
    assertThat(fs.readdir("/b/sub2").entries()).extracting(DirEntry::name).containsExactly("inner");
    assertThat(fs.readdir("/a").entries()).isEmpty();
  }
}
