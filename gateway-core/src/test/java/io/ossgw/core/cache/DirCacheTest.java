package io.ossgw.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.meta.Node;
import io.ossgw.core.meta.Origin;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The directory cache's listings in flight: changes recorded while a directory is listed are applied to that listing
 * before it is cached, an invalidation meanwhile keeps it out, and the misses and too-big marks last for the TTL.
 */
class DirCacheTest {
  private final AtomicLong nanos = new AtomicLong();
  private final DirCache dirs = new DirCache(Duration.ofSeconds(60), false, 1 << 20, nanos::get);

  private static Node file(String key) {
    FileAttr a = new FileAttr(7, FileType.REGULAR, 0640, 0, 0, 1, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, "e");
    return new Node(a, Origin.FILE, key, "Normal", null, null, null, Instant.EPOCH, -1);
  }

  @Test
  void changesDuringTheListingAreAppliedToItInOrder() {
    DirCache.Load load = dirs.begin("/d");
    dirs.childChanged("/d", "made", file("d/made")); // created while the LIST ran: the LIST may not show it
    dirs.childChanged("/d", "gone", file("d/gone"));
    dirs.childRemoved("/d", "gone"); // then removed
    dirs.childRemoved("/d", "old"); // removed while the LIST ran: the LIST may still show it
    dirs.childChanged("/other", "x", file("other/x"));
    DirState listed = dirs.finish(load, new DirState(Map.of("old", file("d/old"), "kept", file("d/kept")), 0));
    assertThat(listed.children().keySet()).containsExactly("kept", "made");
    assertThat(dirs.get("/d")).containsSame(listed);
    dirs.childChanged("/d", "later", file("d/later")); // after finish: straight into the cached listing
    assertThat(dirs.get("/d").orElseThrow().child("later")).isNotNull();
  }

  @Test
  void aDirectoryInvalidatedDuringItsListingIsNotCachedFromIt() {
    DirCache.Load load = dirs.begin("/d");
    dirs.invalidate("/d"); // renamed or found changed while the LIST ran
    dirs.finish(load, new DirState(Map.of("a", file("d/a")), 0));
    assertThat(dirs.get("/d")).isEmpty();
    DirCache.Load below = dirs.begin("/t/sub");
    dirs.invalidateTree("/t");
    dirs.finish(below, new DirState(Map.of(), 0));
    assertThat(dirs.get("/t/sub")).isEmpty();
  }

  @Test
  void anAbandonedListingRecordsNothingAndLaterChangesGoStraightToTheCache() {
    DirCache.Load load = dirs.begin("/d");
    dirs.abandon(load);
    dirs.put("/d", new DirState(Map.of(), 0));
    dirs.childChanged("/d", "a", file("d/a"));
    DirState fresh = dirs.finish(dirs.begin("/d"), new DirState(Map.of("b", file("d/b")), 0));
    assertThat(fresh.children().keySet()).containsExactly("b");
  }

  @Test
  void missesAndTalliesLastForTheTtl() {
    assertThat(dirs.missedIn("/d")).isFalse();
    dirs.recordMiss("/d");
    LookupTally three = new LookupTally(3);
    dirs.recordLookupsListing("/big", three);
    assertThat(dirs.worthListingForLookups("/d")).as("never listed for lookups").isTrue();
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(dirs.missedIn("/d")).isTrue();
    assertThat(dirs.worthListingForLookups("/big")).as("three pages, the lookup it was made for answered").isFalse();
    three.answered();
    assertThat(dirs.worthListingForLookups("/big")).isFalse();
    three.answered();
    assertThat(dirs.worthListingForLookups("/big")).as("one lookup per page").isTrue();
    dirs.recordLookupsListing("/big", new LookupTally(5));
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(dirs.missedIn("/d")).isFalse();
    assertThat(dirs.worthListingForLookups("/big")).as("the latest listing's tally, for the TTL").isFalse();
    nanos.addAndGet(Duration.ofSeconds(59).toNanos());
    assertThat(dirs.worthListingForLookups("/big")).isTrue();
  }

  @Test
  void aListingForLookupsCountsTheLookupsItAnswers() {
    LookupTally tally = new LookupTally(1);
    DirState listed = DirState.forLookups(Map.of("a", file("d/a")), 0, tally);
    assertThat(listed.forLookups()).isTrue();
    assertThat(tally.answers()).as("the lookup it was made for").isEqualTo(1);
    listed.answered();
    assertThat(tally.answers()).isEqualTo(2);
    DirState readdir = new DirState(Map.of(), 0);
    assertThat(readdir.forLookups()).isFalse();
    readdir.answered(); // a readdir's listing keeps no tally
  }

  @Test
  void aDisabledCacheRecordsNoMiss() {
    DirCache off = new DirCache(Duration.ofSeconds(60), false, 0, nanos::get);
    off.recordMiss("/d");
    off.recordLookupsListing("/d", new LookupTally(5));
    assertThat(off.missedIn("/d")).isFalse();
    assertThat(off.worthListingForLookups("/d")).isTrue();
  }
}
