package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.model.ListObjectsV2Request;
import io.ossgw.core.store.ForwardingObjectStore;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.WriteResult;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.util.List;
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
  }

  @Test
  void aDirectoryOfThreePagesIsCopiedAndDeletedPageByPage() {
    int n = 2_500;
    IntStream.range(0, n).parallel().forEach(i -> gw.sdk.putObject(BUCKET, "pages/f" + i,
        new ByteArrayInputStream(("object " + i).getBytes())));
    Watch[] watch = new Watch[1];
    VirtualFileSystem fs = gw.mountThrough(s -> watch[0] = new Watch(s));
    fs.rename("/pages", "/paged");
    Watch w = watch[0];
    assertThat(w.copiesAtDeletes).containsExactly(1000, 2000, 2500);
    assertThat(w.maxInFlight.get()).isBetween(2, DirectoryRenamer.COPY_PARALLELISM);
    assertThat(gw.sdk.listObjectsV2(new ListObjectsV2Request(BUCKET).withPrefix("pages/")).getKeyCount()).isZero();
    assertThat(fs.readdir("/paged").entries()).hasSize(n);
    assertThat(TestGateway.readFile(fs, "/paged/f2499")).isEqualTo("object 2499".getBytes());
  }
}
