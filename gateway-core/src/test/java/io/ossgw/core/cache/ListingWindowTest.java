package io.ossgw.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cache.ListingWindow.Chunk;
import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The listing window: chunk coverage, lookups inside chunks, LRU by bytes, TTL on an injected ticker, changes. */
class ListingWindowTest {
  private final AtomicLong nanos = new AtomicLong();

  private static Node file(String key) {
    FileAttr a = new FileAttr(7, FileType.REGULAR, 0640, 0, 0, 1, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, "e");
    return new Node(a, Origin.FILE, key, "Normal", null, null, null, Instant.EPOCH, -1);
  }

  private static Node dir(String key) {
    FileAttr a = new FileAttr(8, FileType.DIRECTORY, 0750, 0, 0, 4096, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, null);
    return new Node(a, Origin.PREFIX, key, null, null, null, null, null, -1);
  }

  /** A chunk after {@code from} holding files {@code names} (a trailing '/' makes a directory). */
  private static Chunk chunk(String from, String to, boolean eof, String... names) {
    Node[] nodes = new Node[names.length];
    for (int i = 0; i < names.length; i++) {
      nodes[i] = names[i].endsWith("/") ? dir("d/" + names[i]) : file("d/" + names[i]);
    }
    return new Chunk(from, to, names, nodes, eof ? null : "token", eof, new String[0]);
  }

  private ListingWindow window(long bytes) {
    return new ListingWindow(Duration.ofSeconds(60), false, bytes, nanos::get);
  }

  @Test
  void aChunkCoversThePositionsAfterItsStartUpToItsLastKey() {
    ListingWindow w = window(1 << 20);
    Chunk a = chunk("", "c", false, "a", "b/", "c");
    Chunk b = chunk("c", "z", true, "d", "z");
    w.put("/d", a);
    w.put("/d", b);
    assertThat(w.covering("/d", "")).isSameAs(a);
    assertThat(w.covering("/d", "b/")).isSameAs(a);
    assertThat(w.covering("/d", "c")).as("after c: the next chunk").isSameAs(b);
    assertThat(w.covering("/d", "zz")).as("the last chunk covers everything after it").isSameAs(b);
    assertThat(a.firstAfter("a")).isEqualTo(1);
    assertThat(a.firstAfter("a-1")).as("'-' sorts before '/'").isEqualTo(1);
    assertThat(a.firstAfter("b/")).isEqualTo(2);
    assertThat(w.covering("/other", "")).isNull();
  }

  @Test
  void lookupsInsideChunksFindNamesAndAbsenceOnlyWhereEveryFormIsCovered() {
    ListingWindow w = window(1 << 20);
    w.put("/d", chunk("", "m", false, "a", "b/", "m"));
    assertThat(w.find("/d", "a", false)).isInstanceOf(ListingWindow.Present.class);
    assertThat(((ListingWindow.Present) w.find("/d", "b", false)).node().isDirectory()).isTrue();
    assertThat(w.find("/d", "c", false)).as("c and c/ both inside (start, m]").isInstanceOf(ListingWindow.Absent.class);
    assertThat(w.find("/d", "m", false)).as("m/ lies after the chunk: a directory may hide the file")
        .isInstanceOf(ListingWindow.Unknown.class);
    assertThat(w.find("/d", "x", false)).isInstanceOf(ListingWindow.Unknown.class);
    w.put("/d", chunk("m", "n", true, "n"));
    assertThat(w.find("/d", "m", false)).isInstanceOf(ListingWindow.Present.class);
    assertThat(w.find("/d", "x", false)).isInstanceOf(ListingWindow.Absent.class);
  }

  @Test
  void theLeastRecentlyUsedChunksGoFirstAndTheOneJustAddedStays() {
    Chunk a = chunk("", "b", false, "a", "b");
    ListingWindow w = window(a.weight() * 2 + a.weight() / 2);
    w.put("/d", a);
    w.put("/d", chunk("b", "d", false, "c", "d"));
    assertThat(w.covering("/d", "")).isSameAs(a); // a used last
    w.put("/d", chunk("d", "f", false, "e", "f"));
    assertThat(w.covering("/d", "")).as("a was used more recently than b..d").isSameAs(a);
    assertThat(w.covering("/d", "b")).as("evicted").isNull();
    assertThat(w.weightedSize()).isLessThanOrEqualTo(a.weight() * 2 + a.weight() / 2);
    ListingWindow tiny = window(1);
    tiny.put("/d", a);
    assertThat(tiny.covering("/d", "")).as("a chunk heavier than the bound still stays until the next").isSameAs(a);
  }

  @Test
  void chunksExpireAfterTheTtl() {
    ListingWindow w = window(1 << 20);
    w.put("/d", chunk("", "b", true, "a", "b"));
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(w.covering("/d", "")).isNotNull();
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(w.covering("/d", "")).isNull();
    assertThat(w.weightedSize()).isZero();
  }

  @Test
  void aChangedEntryIsReplacedInPlaceAndANewOrRemovedOneDropsItsChunk() {
    ListingWindow w = window(1 << 20);
    w.put("/d", chunk("", "c", false, "a", "c"));
    w.put("/d", chunk("c", "f", true, "e", "f"));
    Node newer = file("d/a");
    w.childChanged("/d", "a", newer);
    assertThat(((ListingWindow.Present) w.find("/d", "a", false)).node()).isSameAs(newer);
    w.childChanged("/d", "b", file("d/b")); // new: its chunk is fetched again
    assertThat(w.covering("/d", "")).isNull();
    assertThat(w.covering("/d", "c")).isNotNull();
    w.childRemoved("/d", "e");
    assertThat(w.covering("/d", "c")).isNull();
    w.put("/d/sub", chunk("", "x", true, "x"));
    w.put("/d", chunk("", "c", false, "a", "c"));
    w.invalidateTree("/d");
    assertThat(w.weightedSize()).isZero();
  }

  @Test
  void theBudgetOfA128MbHeap() {
    MetadataBudget b = MetadataBudget.of(100_000, 128L << 20);
    assertThat(b.statBytes()).isEqualTo(16L << 20); // an eighth of the heap, less than 100,000 x 400 B
    assertThat(b.listingBytes()).isEqualTo(8L << 20);
    assertThat(b.windowBytes()).isEqualTo(8L << 20);
    assertThat(b.wholeDirBytes()).isEqualTo(4L << 20);
    MetadataBudget big = MetadataBudget.of(100_000, 6L << 30);
    assertThat(big.statBytes()).isEqualTo(40_000_000L); // ossfs's "about 40 MB"
    MetadataBudget off = MetadataBudget.of(0, 6L << 30);
    assertThat(off.statBytes()).isZero();
    assertThat(off.windowBytes()).as("paging needs a window even with caching off").isEqualTo(MetadataBudget.MIN_WINDOW);
  }
}
