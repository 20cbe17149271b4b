package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.DirPage;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Listings read page by page (issue 21): a directory too big to keep whole is streamed from ListObjectsV2 pages through
 * the listing window, with one LIST per OSS page however small the pages the front end asks for, entries created or
 * removed between pages, lookups answered from the pages held, and the HEADs of the default mode one page at a time.
 * {@code max_stat_cache_size=10} makes the metadata share a few kilobytes, so every directory here of more than a
 * handful of entries is streamed.
 */
class StreamedListingTest extends GatewayFixture {
  private static final String[] STREAMED = {"max_stat_cache_size=10", "list_object_max_keys=100", "readdir_optimize"};

  private void seed(String dir, int n, byte[] body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        String key = String.format("%s/f%03d", dir, i);
        puts.add(pool.submit(() -> gw.sdk.putObject(BUCKET, key, new ByteArrayInputStream(body))));
      }
      for (Future<?> f : puts) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Every name of a listing read in pages of {@code size}, and the number of pages. */
  private static List<String> pages(VirtualFileSystem fs, String dir, int size, int[] count) {
    List<String> names = new ArrayList<>();
    String after = null;
    while (true) {
      DirPage p = fs.readdir(dir, after, size);
      count[0]++;
      assertThat(p.entries().size()).isLessThanOrEqualTo(size);
      p.entries().forEach(e -> names.add(e.name()));
      if (p.eof()) {
        return names;
      }
      assertThat(p.entries()).as("only the last page may be short").hasSize(size);
      after = p.resumeAfter(after);
    }
  }

  @Test
  void aBigDirectoryIsStreamedWithOneListPerOssPage() throws Exception {
    seed("s", 450, utf8("1"));
    VirtualFileSystem fs = gw.mount(STREAMED);
    fs.getattr("/s");
    gw.resetCounters();
    int[] pages = {0};
    List<String> names = pages(fs, "/s", 37, pages);
    assertThat(names).hasSize(450).doesNotHaveDuplicates().isSorted();
    assertThat(pages[0]).isEqualTo(13); // ceil(450 / 37)
    assertThat(gw.count("ListObjectsV2")).isEqualTo(5); // ceil(450 / 100): small front-end pages cost no more
    assertThat(gw.count("HeadObject")).isZero();
    // the pages the window holds answer lookups: a listed name, and a missing one inside a page's range
    gw.resetCounters();
    assertThat(fs.getattr("/s/f123").size()).isEqualTo(1);
    assertThatThrownBy(() -> fs.getattr("/s/f123x")).isInstanceOf(FsException.class)
        .extracting(e -> ((FsException) e).errno()).isEqualTo(Errno.ENOENT);
    // and a listing again (within the TTL) is served from them
    assertThat(pages(fs, "/s", 1000, new int[1])).isEqualTo(names);
    assertThat(gw.emu.counters().total()).isZero();
  }

  @Test
  void entriesChangedBetweenPagesOfAStreamedDirectoryAreListedOnceOrNotAtAll() throws Exception {
    seed("c", 300, utf8("1"));
    VirtualFileSystem fs = gw.mount(STREAMED);
    fs.getattr("/c");
    List<String> seen = new ArrayList<>();
    String after = null;
    int page = 0;
    while (true) {
      DirPage p = fs.readdir("/c", after, 40);
      p.entries().forEach(e -> seen.add(e.name()));
      if (p.eof()) {
        break;
      }
      after = p.resumeAfter(after);
      if (page++ == 2) { // after f119
        fs.unlink("/c/f050"); // listed already
        fs.unlink("/c/f250"); // not yet listed: never is
        writeFile(fs, "/c/f010x", utf8("new")); // sorts before the position: not listed
        writeFile(fs, "/c/f200x", utf8("new")); // sorts after: listed once
        gw.sdk.putObject(BUCKET, "c/f201x", new ByteArrayInputStream(utf8("other client"))); // seen if not yet fetched
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      if (i != 250) {
        expected.add(String.format("f%03d", i));
      }
      if (i == 200) {
        expected.add("f200x");
      }
    }
    assertThat(seen).doesNotHaveDuplicates();
    assertThat(seen.stream().filter(n -> !n.equals("f201x")).toList()).containsExactlyElementsOf(expected);
  }

  @Test
  void theDefaultModeHeadsEachNewObjectOncePageByPage() throws Exception {
    seed("h", 250, new byte[0]); // never seen, no metadata: a HEAD each (ossfs's readdir_multi_head)
    VirtualFileSystem fs = gw.mount("max_stat_cache_size=10", "list_object_max_keys=100", "multireq_max=4");
    fs.getattr("/h");
    gw.resetCounters();
    assertThat(pages(fs, "/h", 64, new int[1])).hasSize(250);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(3);
    assertThat(gw.count("HeadObject")).isEqualTo(250);
  }

  /** D7: a file x beside a directory x/ (the directory is listed), and keys no path can name (left out, logged). */
  private void seedClashes(String dir) {
    for (String k : List.of("x", "x/", "x/child.txt", "a//b", "./c", "../d", "w", "x-1")) {
      gw.sdk.putObject(BUCKET, dir + k, new ByteArrayInputStream(utf8(k.endsWith("/") ? "" : "body of " + k)));
    }
  }

  private void assertClashesShown(VirtualFileSystem fs, String dir, boolean cachedListing) {
    List<DirEntry> root = fs.readdir(dir.isEmpty() ? "/" : "/" + dir.substring(0, dir.length() - 1)).entries();
    assertThat(root).extracting(DirEntry::name).containsExactly("a", "w", "x-1", "x");
    assertThat(root).filteredOn(e -> e.name().equals("x")).singleElement()
        .satisfies(e -> assertThat(e.attr().isDirectory()).isTrue());
    String base = dir.isEmpty() ? "" : "/" + dir.substring(0, dir.length() - 1);
    if (cachedListing) { // a lookup after the listing answers from it; a cold one HEADs x (SEMANTICS.md)
      assertThat(fs.getattr(base + "/x").isDirectory()).isTrue();
    }
    assertThat(new String(readFile(fs, base + "/x/child.txt"))).isEqualTo("body of x/child.txt");
    assertThat(fs.readdir(base + "/x").entries()).extracting(DirEntry::name).containsExactly("child.txt");
    assertThat(fs.readdir(base + "/a").entries()).as("a//b has an empty component").isEmpty();
  }

  @Test
  void aDirectoryHidesAFileOfItsNameAndUnnamableKeysAreLeftOutAndLoggedOnce() {
    seedClashes("");
    List<String> warnings = new ArrayList<>();
    Logger log = Logger.getLogger(Lister.class.getName());
    Handler h = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (r.getLevel() == Level.WARNING) {
          warnings.add(r.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(h);
    try {
      VirtualFileSystem fs = gw.mount("stat_cache_expire=0");
      assertClashesShown(gw.mount(), "", true); // a listing kept whole
      assertClashesShown(fs, "", false); // kept for no time at all
      assertClashesShown(fs, "", false); // and listed anew: logged once
    } finally {
      log.removeHandler(h);
    }
    assertThat(warnings).filteredOn(m -> m.startsWith("directory /:")).as("once per directory and engine").hasSize(2)
        .first().asString()
        .contains("3 object name(s)", "'x' (a directory 'x/' has its name", "'./'", "'../'");
  }

  @Test
  void theSameInAStreamedListingWithTheFileAndItsDirectoryOnTwoPages() {
    seedClashes("p/");
    // pages of 2 keys: [../, ./] [a/, w] [x, x-1] [x/]: x is decided by the next page
    assertClashesShown(gw.mount("max_stat_cache_size=10", "list_object_max_keys=2"), "p/", true);
    VirtualFileSystem fs = gw.mount("max_stat_cache_size=10", "list_object_max_keys=2");
    List<String> names = new ArrayList<>();
    String after = null;
    while (true) {
      DirPage p = fs.readdir("/p", after, 1); // one entry at a time: each page boundary is a readdir boundary
      p.entries().forEach(e -> names.add(e.name()));
      if (p.eof()) {
        break;
      }
      after = p.resumeAfter(after);
    }
    assertThat(names).containsExactly("a", "w", "x-1", "x");
  }
}
