package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Names missing in a directory whose listing no cache holds (SEMANTICS.md "Caches"): the first costs what it always
 * did (a HEAD and a LIST for a lookup, one LIST for a create's); the next one lists the directory, in up to four
 * ListObjectsV2 pages, and the names missing after that cost no request while that listing lives (5 s at most). A
 * directory of more than four pages, {@code disable_noobj_cache} and a TTL that ran out keep the per-name requests; a
 * readdir does not take the lookups' listing for its own (it lacks the HEADs of objects never seen).
 */
class MissListingTest extends GatewayFixture {
  private final AtomicLong nanos = new AtomicLong();

  private void seed(String dir, int n) {
    for (int i = 0; i < n; i++) {
      gw.sdk.putObject(BUCKET, dir + "/old" + i, new ByteArrayInputStream(utf8("x")));
    }
  }

  private static Errno errnoOf(VirtualFileSystem fs, String path, boolean beforeCreate) {
    try {
      if (beforeCreate) {
        fs.getattrBeforeCreate(path);
      } else {
        fs.getattr(path);
      }
      return null;
    } catch (FsException e) {
      return e.errno();
    }
  }

  private long requests() {
    return gw.count("ListObjectsV2") + gw.count("HeadObject");
  }

  @Test
  void aBatchOfNewNamesInAnExistingDirectoryCostsOneListingAfterTheFirst() {
    seed("logs", 5);
    VirtualFileSystem fs = gw.mount();
    gw.resetCounters();
    for (int i = 0; i < 50; i++) {
      assertThat(errnoOf(fs, "/logs/new" + i, true)).isEqualTo(Errno.ENOENT);
    }
    assertThat(gw.count("ListObjectsV2")).as("the first name's LIST, then the directory's").isEqualTo(2);
    assertThat(gw.count("HeadObject")).isZero();

    TestGateway.writeFile(fs, "/logs/new0", utf8("made")); // our own create enters the cached listing
    gw.resetCounters();
    assertThat(fs.getattr("/logs/new0").size()).isEqualTo(4);
    assertThat(errnoOf(fs, "/logs/new1", false)).isEqualTo(Errno.ENOENT);
    assertThat(requests()).isZero();
    assertThat(fs.getattr("/logs/old3").size()).as("a listed object, completed by its HEAD").isEqualTo(1);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
    assertThat(gw.count("ListObjectsV2")).isZero();
  }

  @Test
  void plainLookupsThatMissListTheDirectoryOnTheSecondMiss() {
    seed("d", 3);
    gw.sdk.putObject(BUCKET, "d/sub/inner", new ByteArrayInputStream(utf8("y")));
    VirtualFileSystem fs = gw.mount();
    gw.resetCounters();
    assertThat(errnoOf(fs, "/d/m1", false)).isEqualTo(Errno.ENOENT);
    assertThat(requests()).as("HEAD and LIST, as before").isEqualTo(2);
    assertThat(errnoOf(fs, "/d/m2", false)).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).as("the directory's listing instead of m2's HEAD and LIST").isEqualTo(2);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
    gw.resetCounters();
    for (int i = 3; i < 20; i++) {
      assertThat(errnoOf(fs, "/d/m" + i, false)).isEqualTo(Errno.ENOENT);
    }
    assertThat(requests()).isZero();
    assertThat(fs.getattr("/d/sub").isDirectory()).as("a directory in the listing").isTrue();
  }

  @Test
  void concurrentMissesWaitForOneListing() throws Exception {
    seed("c", 3);
    VirtualFileSystem fs = gw.mount();
    assertThat(errnoOf(fs, "/c/first", true)).isEqualTo(Errno.ENOENT);
    gw.resetCounters();
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Errno>> answers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String p = "/c/n" + i;
        answers.add(pool.submit(() -> {
          go.await();
          return errnoOf(fs, p, true);
        }));
      }
      go.countDown();
      for (Future<Errno> f : answers) {
        assertThat(f.get()).isEqualTo(Errno.ENOENT);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isZero();
  }

  @Test
  void aDirectoryOfAFewPagesIsListedWhole() {
    seed("few", 12);
    gw.sdk.putObject(BUCKET, "few/zz/inner", new ByteArrayInputStream(utf8("y"))); // on the last page
    VirtualFileSystem fs = gw.mount("list_object_max_keys=5");
    gw.resetCounters();
    for (int i = 0; i < 4; i++) {
      assertThat(errnoOf(fs, "/few/n" + i, true)).isEqualTo(Errno.ENOENT);
    }
    // n0: its LIST; n1: the directory's three pages; n2, n3: none
    assertThat(gw.count("ListObjectsV2")).isEqualTo(4);
    gw.resetCounters();
    assertThat(fs.getattr("/few/zz").isDirectory()).isTrue();
    assertThat(gw.count("ListObjectsV2")).as("at most the HEAD of its marker").isZero();
  }

  @Test
  void aDirectoryOfMoreThanFourPagesKeepsThePerNameRequests() {
    seed("big", 25);
    VirtualFileSystem fs = gw.mount("list_object_max_keys=5");
    gw.resetCounters();
    for (int i = 0; i < 4; i++) {
      assertThat(errnoOf(fs, "/big/n" + i, true)).isEqualTo(Errno.ENOENT);
    }
    // n0: its LIST; n1: four pages of the directory (more follow: too big, remembered) and its own LIST; n2, n3: theirs
    assertThat(gw.count("ListObjectsV2")).isEqualTo(8);
  }

  @Test
  void namesNowAndThenInADirectoryOfSeveralPagesKeepTheirOwnRequests() {
    seed("trickle", 12);
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=60", "list_object_max_keys=5");
    gw.resetCounters();
    assertThat(errnoOf(fs, "/trickle/n0", true)).isEqualTo(Errno.ENOENT); // its LIST
    assertThat(errnoOf(fs, "/trickle/n1", true)).isEqualTo(Errno.ENOENT); // three pages, answering one lookup
    nanos.addAndGet(6_000_000_000L);
    assertThat(errnoOf(fs, "/trickle/n2", true)).isEqualTo(Errno.ENOENT); // not worth it again: its own LIST
    nanos.addAndGet(6_000_000_000L);
    assertThat(errnoOf(fs, "/trickle/n3", true)).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1 + 3 + 1 + 1);
  }

  @Test
  void aNameAnotherClientMadeShowsOnceTheLookupsListingExpires() {
    seed("o", 3);
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=60");
    assertThat(errnoOf(fs, "/o/a", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/o/b", true)).isEqualTo(Errno.ENOENT); // listed for lookups
    gw.sdk.putObject(BUCKET, "o/other", new ByteArrayInputStream(utf8("theirs")));
    assertThat(errnoOf(fs, "/o/other", false)).as("within the listing's 5 s").isEqualTo(Errno.ENOENT);
    nanos.addAndGet(6_000_000_000L);
    assertThat(errnoOf(fs, "/o/c", true)).as("a new name lists again").isEqualTo(Errno.ENOENT);
    assertThat(fs.getattr("/o/other").size()).isEqualTo(6);
  }

  @Test
  void disableNoobjCacheKeepsThePerNameRequests() {
    seed("nc", 3);
    VirtualFileSystem fs = gw.mount("disable_noobj_cache");
    gw.resetCounters();
    for (int i = 0; i < 3; i++) {
      assertThat(errnoOf(fs, "/nc/n" + i, true)).isEqualTo(Errno.ENOENT);
    }
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3);
  }

  @Test
  void theMissIsForgottenWithTheTtl() {
    seed("t", 3);
    VirtualFileSystem fs = gw.mountWithTicker(nanos::get, "stat_cache_expire=60");
    gw.resetCounters();
    assertThat(errnoOf(fs, "/t/a", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/t/b", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/t/c", true)).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(2);
    nanos.addAndGet(61_000_000_000L);
    gw.resetCounters();
    assertThat(errnoOf(fs, "/t/d", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/t/e", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/t/f", true)).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("ListObjectsV2")).as("listing and miss expired: the first name's LIST again").isEqualTo(2);
  }

  @Test
  void aReaddirListsAgainAndShowsTheMetadataOfItsHeads() {
    ObjectMetadata meta = new ObjectMetadata();
    meta.setUserMetadata(Map.of("mode", Integer.toString(0100600), "uid", "42", "gid", "43"));
    gw.sdk.putObject(BUCKET, "meta/f", new ByteArrayInputStream(utf8("abc")), meta);
    VirtualFileSystem fs = gw.mount();
    assertThat(fs.getattr("/meta").isDirectory()).isTrue(); // as a client's lookup of it before the names in it
    assertThat(errnoOf(fs, "/meta/a", true)).isEqualTo(Errno.ENOENT);
    assertThat(errnoOf(fs, "/meta/b", true)).isEqualTo(Errno.ENOENT); // the lookups' listing: f without its HEAD
    gw.resetCounters();
    List<DirEntry> entries = fs.readdir("/meta").entries();
    assertThat(entries).extracting(DirEntry::name).containsExactly("f");
    assertThat(entries.get(0).attr().mode() & 07777).isEqualTo(0600);
    assertThat(entries.get(0).attr().uid()).isEqualTo(42);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
    gw.resetCounters();
    assertThat(errnoOf(fs, "/meta/c", true)).isEqualTo(Errno.ENOENT);
    assertThat(fs.readdir("/meta").entries()).hasSize(1);
    assertThat(requests()).as("the readdir's listing answers both").isZero();
  }
}
