package io.ossgw.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MetadataCacheTest {
  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;

  private static Node node(String etag) {
    FileAttr a = new FileAttr(9, FileType.REGULAR, 0644, 0, 0, 1, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, etag);
    return new Node(a, Origin.FILE, "k", "Normal", null, Map.of(), null, Instant.EPOCH, -1);
  }

  @Test
  void entriesExpireAfterTheTtlFromInsert() {
    MetadataCache c = new MetadataCache(Duration.ofSeconds(900), false, 1 << 20, true, ticker);
    c.put("/a", node("E1"));
    nanos.addAndGet(Duration.ofSeconds(899).toNanos());
    assertThat(c.get("/a")).isPresent();
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(c.get("/a")).isEmpty();
  }

  @Test
  void slidingTtlIsRefreshedByHits() {
    MetadataCache c = new MetadataCache(Duration.ofSeconds(10), true, 1 << 20, true, ticker);
    c.put("/a", node("E1"));
    for (int i = 0; i < 5; i++) {
      nanos.addAndGet(Duration.ofSeconds(8).toNanos());
      assertThat(c.get("/a")).isPresent();
    }
    nanos.addAndGet(Duration.ofSeconds(11).toNanos());
    assertThat(c.get("/a")).isEmpty();
  }

  @Test
  void olderListingDataNeverOverwritesANewerEntry() {
    MetadataCache c = new MetadataCache(Duration.ofSeconds(900), false, 1 << 20, true, ticker);
    long listingStarted = c.now();
    nanos.addAndGet(1000);
    c.put("/a", node("NEW"));
    c.putIfNewer("/a", node("OLD"), listingStarted);
    assertThat(c.get("/a").orElseThrow().node().attr().etag()).isEqualTo("NEW");
    c.putIfNewer("/a", node("NEWER"), c.now() + 1);
    assertThat(c.get("/a").orElseThrow().node().attr().etag()).isEqualTo("NEWER");
  }

  @Test
  void negativeEntriesCanBeDisabledAndSizeZeroDisablesAll() {
    MetadataCache off = new MetadataCache(Duration.ofSeconds(900), false, 1 << 20, false, ticker);
    off.putNegative("/missing");
    assertThat(off.get("/missing")).isEmpty();
    MetadataCache on = new MetadataCache(Duration.ofSeconds(900), false, 1 << 20, true, ticker);
    on.putNegative("/missing");
    assertThat(on.get("/missing").orElseThrow().negative()).isTrue();
    MetadataCache none = new MetadataCache(Duration.ofSeconds(900), false, 0, true, ticker);
    none.put("/a", node("E"));
    assertThat(none.get("/a")).isEmpty();
  }

  @Test
  void invalidateTreeDropsEverythingBelow() {
    MetadataCache c = new MetadataCache(null, false, 1 << 20, true, ticker);
    c.put("/d", node("1"));
    c.put("/d/x", node("2"));
    c.put("/d/x/y", node("3"));
    c.put("/dd", node("4"));
    c.invalidateTree("/d");
    assertThat(c.get("/d")).isEmpty();
    assertThat(c.get("/d/x/y")).isEmpty();
    assertThat(c.get("/dd")).isPresent();
  }
}
