package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ListPage;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreErrorKind;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A directory rename works one ListObjectsV2 page at a time ({@link DirectoryRenamer}): a page's sources are deleted
 * before the next page is copied, and no more than {@value DirectoryRenamer#COPY_PARALLELISM} copies run at once, so
 * the heap and the threads a rename takes do not grow with the directory (one that listed everything first and
 * started a thread per object held about half a KB and a parked virtual thread per object).
 */
class PagedDirectoryRenameTest extends GatewayFixture {
  /** Counts copies as the engine sends them, the most at once, and the copies made before each batch delete. */
  static final class Watch extends ForwardingObjectStore {
    final AtomicInteger copies = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final List<Integer> copiesAtDeletes = new CopyOnWriteArrayList<>();
    volatile boolean refuseNextPages;

    Watch(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public WriteResult copyObject(String sourceKey, String destinationKey, WriteMeta meta) {
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        return super.copyObject(sourceKey, destinationKey, meta);
      } finally {
        inFlight.decrementAndGet();
        copies.incrementAndGet();
      }
    }

    @Override
    public List<String> deleteObjects(List<String> keys) {
      copiesAtDeletes.add(copies.get());
      return super.deleteObjects(keys);
    }

    @Override
    public ListPage listObjectsV2(String prefix, String delimiter, String continuationToken, String startAfter,
        int maxKeys) {
      if (refuseNextPages && continuationToken != null) {
        throw new StoreException(StoreErrorKind.ACCESS_DENIED, "AccessDenied", 403, null, "refused by the test", null);
      }
      return super.listObjectsV2(prefix, delimiter, continuationToken, startAfter, maxKeys);
    }
  }

  void seed(String dir, int n) {
    IntStream.range(0, n).parallel().forEach(i -> gw.sdk.putObject(BUCKET, dir + "/f" + i,
        new ByteArrayInputStream(("object " + i).getBytes())));
  }

  /** The keys below {@code prefix}, without it. */
  Set<String> keys(String prefix) {
    Set<String> out = new TreeSet<>();
    gw.keys(prefix).forEach(k -> out.add(k.substring(prefix.length())));
    return out;
  }

  @Test
  void aDirectoryOfThreePagesIsCopiedAndDeletedPageByPage() {
    int n = 2_500;
    seed("pages", n);
    Watch[] watch = new Watch[1];
    VirtualFileSystem fs = gw.mountThrough(s -> watch[0] = new Watch(s));
    fs.rename("/pages", "/paged");
    Watch w = watch[0];
    assertThat(w.copiesAtDeletes).containsExactly(1000, 2000, 2500);
    assertThat(w.maxInFlight.get()).isBetween(2, DirectoryRenamer.COPY_PARALLELISM);
    assertThat(gw.keys("pages/")).isEmpty();
    assertThat(fs.readdir("/paged").entries()).hasSize(n);
    assertThat(TestGateway.readFile(fs, "/paged/f2499")).isEqualTo("object 2499".getBytes());
  }

  /** A listing refused after the first page ends the rename there: EIO, every object under exactly one name. */
  @Test
  void aListingRefusedHalfWayLeavesTheRestUnderTheOldName() {
    seed("half", 2_500);
    Watch[] watch = new Watch[1];
    VirtualFileSystem fs = gw.mountThrough(s -> watch[0] = new Watch(s));
    watch[0].refuseNextPages = true;
    assertThatThrownBy(() -> fs.rename("/half", "/half2")).isInstanceOfSatisfying(FsException.class,
        e -> assertThat(e.errno()).isEqualTo(Errno.EIO));
    Set<String> old = keys("half/");
    Set<String> moved = keys("half2/");
    assertThat(moved).hasSize(1000);
    assertThat(old).hasSize(1500).doesNotContainAnyElementsOf(moved);
    watch[0].refuseNextPages = false;
    assertThat(fs.readdir("/half").entries()).hasSize(1500);
    assertThat(fs.readdir("/half2").entries()).hasSize(1000);
  }
}
