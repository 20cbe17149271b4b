package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectInfo;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A cold listing by default (issue 22 item 4, SEMANTICS.md "Listings"): one HEAD per object never seen, for the
 * {@code x-oss-meta-*} attributes ossfs's {@code readdir_multi_head} shows, with the LIST of the next page sent while
 * this page's HEADs run, so the listing waits for one LIST instead of one per page.
 */
class ColdListingTest extends GatewayFixture {
  private static final long DEADLINE_S = 30;

  private void seed(String dir, int n) {
    for (int i = 0; i < n; i++) {
      gw.sdk.putObject(BUCKET, String.format(Locale.ROOT, "%s/o%03d", dir, i), new ByteArrayInputStream(utf8("x")));
    }
  }

  @Test
  void theNextPageIsListedWhileThisPagesHeadsRunAndEveryObjectShowsItsHeadersAttributes() throws Exception {
    seed("c", 250);
    ObjectMetadata meta = new ObjectMetadata();
    meta.setUserMetadata(Map.of("mode", Integer.toString(0100600), "uid", "42", "gid", "43",
        "mtime", "1700000000"));
    gw.sdk.putObject(BUCKET, "c/o007", new ByteArrayInputStream(utf8("seven")), meta); // page 1
    gw.sdk.putObject(BUCKET, "c/o242", new ByteArrayInputStream(utf8("two-four-two")), meta); // page 3
    CountDownLatch nextPageListed = new CountDownLatch(1);
    AtomicBoolean headedBeforeNextList = new AtomicBoolean();
    VirtualFileSystem fs = gw.mountThrough(s -> new ForwardingObjectStore(s) {
      @Override
      public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
        if ("c/".equals(prefix) && token != null) {
          nextPageListed.countDown();
        }
        return super.listObjectsV2(prefix, delimiter, token, startAfter, maxKeys);
      }

      @Override
      public ObjectInfo headObject(String key) {
        // A HEAD of the first page holds until the second page's LIST is sent: it is sent right after the first
        // page's LIST returns, so only a listing that lists after the HEADs (the order before) makes this wait out.
        if (key.startsWith("c/o") && key.compareTo("c/o100") < 0 && !headedBeforeNextList.get()) {
          try {
            if (!nextPageListed.await(DEADLINE_S, TimeUnit.SECONDS)) {
              headedBeforeNextList.set(true);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.headObject(key);
      }
    }, "list_object_max_keys=100", "multireq_max=4");
    fs.getattr("/c");
    gw.resetCounters();

    List<DirEntry> entries = fs.readdir("/c").entries();

    assertThat(headedBeforeNextList).as("a first-page HEAD answered before the second page was listed").isFalse();
    assertThat(entries).hasSize(250);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3); // ceil(250 / 100): listing ahead asks no extra page
    assertThat(gw.count("HeadObject")).isEqualTo(250); // one per object never seen (ossfs: readdir_multi_head)
    Map<String, DirEntry> byName = entries.stream().collect(Collectors.toMap(DirEntry::name, Function.identity()));
    for (String name : List.of("o007", "o242")) {
      DirEntry e = byName.get(name);
      assertThat(e.attr().mode() & 07777).as(name).isEqualTo(0600);
      assertThat(e.attr().uid()).as(name).isEqualTo(42);
      assertThat(e.attr().gid()).as(name).isEqualTo(43);
      assertThat(e.attr().mtime()).as(name).isEqualTo(Instant.ofEpochSecond(1700000000));
    }
    assertThat(byName.get("o242").attr().size()).isEqualTo(12);
    assertThat(byName.get("o100").attr().mode() & 07777).isEqualTo(0640); // no x-oss-meta-mode: ossfs's default
    for (String name : byName.keySet()) {
      fs.getattr("/c/" + name); // the kernel's LOOKUPs after the listing: answered from it
    }
    assertThat(gw.count("HeadObject")).isEqualTo(250);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3);
  }

  @Test
  void aNextPageThatCannotBeListedFailsTheListingWithEio() {
    seed("f", 150);
    AtomicBoolean failing = new AtomicBoolean(true);
    VirtualFileSystem fs = gw.mountThrough(s -> new ForwardingObjectStore(s) {
      @Override
      public ListPage listObjectsV2(String prefix, String delimiter, String token, String startAfter, int maxKeys) {
        if ("f/".equals(prefix) && token != null && failing.get()) {
          throw new StoreException(StoreErrorKind.ACCESS_DENIED, "AccessDenied", "denied for the test");
        }
        return super.listObjectsV2(prefix, delimiter, token, startAfter, maxKeys);
      }
    }, "list_object_max_keys=100", "multireq_max=4");
    fs.getattr("/f");

    assertThatThrownBy(() -> fs.readdir("/f")).isInstanceOf(FsException.class)
        .extracting(e -> ((FsException) e).errno()).isEqualTo(Errno.EACCES);

    failing.set(false);
    assertThat(fs.readdir("/f").entries()).hasSize(150); // nothing half-listed was kept
  }
}
