package io.ossgw.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ClusterConfig;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.inode.InodeTable;
import io.vertx.mutiny.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link InodeTable#shared} on a real Valkey (or Redis) server the test starts (issue 23 item 1): two gateways' tables
 * give the same numbers, generations and handle secret; the store-backed table numbers exactly as the state
 * directory's file does for the same history (renames, directory renames, tombstones, probing past a taken number);
 * allocation is atomic across gateways; a store that is down is an error, never a number; and {@code ossgw cluster
 * import-inodes} ({@link InodeImport}) carries a file's table over, refusing another table's.
 */
class RedisInodeTableTest {
  @TempDir Path dir;
  final Vertx vertx = Vertx.vertx();
  final List<AutoCloseable> open = new ArrayList<>();
  static final int SPACE = 7;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    vertx.closeAndAwait();
  }

  ValkeyServer server() throws Exception {
    ValkeyServer v = ValkeyServer.start(dir);
    open.add(v);
    return v;
  }

  RedisStore store(ValkeyServer v, String node) {
    ClusterSettings s = new ClusterSettings(v.url(), false, ClusterConfig.Mode.ACTIVE, "t", node,
        Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(2), Optional.empty(), Optional.empty());
    RedisStore r = new RedisStore(vertx, s, RedisStore.Recorder.NONE);
    open.add(r);
    return r;
  }

  InodeTable shared(ValkeyServer v, String node) {
    return InodeTable.shared(new RedisInodeNumberStore(store(v, node), "nfs"));
  }

  @Test
  void twoGatewaysGiveTheSameNumbersGenerationsAndSecret() throws Exception {
    ValkeyServer v = server();
    InodeTable a = shared(v, "a");
    InodeTable b = shared(v, "b");
    assertThat(a.secret()).isEqualTo(b.secret()).hasSize(16);
    long big = 0x7edc_ba98_7654_3211L; // above 2^53: Lua's doubles would round it
    long[] f = a.idOf(SPACE, "/dir/file", big);
    assertThat(f).containsExactly(big, 1);
    assertThat(b.idOf(SPACE, "/dir/file", 12345)).containsExactly(big, 1);
    assertThat(b.resolve(SPACE, big)).isEqualTo(new InodeTable.Entry(1, "/dir/file"));
    assertThat(b.known(SPACE, "/dir/file")).isEqualTo(big);
    assertThat(b.resolve(SPACE + 1, big)).as("another name space").isNull();
    // a rename on A: B resolves the same number to the new path
    a.renamed(SPACE, "/dir", "/moved");
    assertThat(b.resolve(SPACE, big)).isEqualTo(new InodeTable.Entry(1, "/moved/file"));
    assertThat(b.known(SPACE, "/dir/file")).isNull();
    // a removal on B: A sees the tombstone; the same path again gets the same number, next generation
    b.removed(SPACE, "/moved/file");
    assertThat(a.resolve(SPACE, big)).isEqualTo(new InodeTable.Entry(1, null));
    assertThat(a.idOf(SPACE, "/moved/file", big)).containsExactly(big, 2);
  }

  @Test
  void theStoreNumbersExactlyAsTheFileForTheSameHistory() throws Exception {
    ValkeyServer v = server();
    InodeTable s = shared(v, "a");
    try (InodeTable file = InodeTable.open(null)) {
      List<long[]> got = new ArrayList<>();
      Map<Long, Boolean> seen = new HashMap<>();
      for (InodeTable t : List.of(file, s)) {
        List<Long> out = new ArrayList<>();
        out.add(t.idOf(SPACE, "/a", 100)[0]);
        out.add(t.idOf(SPACE, "/a/x", 101)[0]);
        out.add(t.idOf(SPACE, "/a/y", 102)[0]);
        out.add(t.idOf(SPACE, "/ab", 103)[0]); // a sibling whose name starts like /a: must not move with it
        out.add(t.numberIfFirstSeen(SPACE, "/listed", 104)); // shown, not recorded
        t.renamed(SPACE, "/a", "/b");
        out.add(t.idOf(SPACE, "/a", 100)[0]); // 100 is /b's now: probed past it
        out.add(t.numberIfFirstSeen(SPACE, "/a/x", 101)); // 101 is /b/x's: recorded at a probed number
        out.add(t.numberOf(SPACE, "/c", 0));
        t.idOf(SPACE, "/target", 105);
        t.renamed(SPACE, "/b/y", "/target"); // replaces /target: 105 becomes a tombstone
        t.removed(SPACE, "/ab");
        out.add(t.idOf(SPACE, "/ab", 103)[1]); // generation 2
        out.add(t.idOf(SPACE, "/new", 105)[1]); // 105's tombstone: generation 2
        t.idOf(SPACE, "/gone", 106);
        t.removed(SPACE, "/gone");
        for (long n : out) {
          seen.put(n, true);
        }
        got.add(out.stream().mapToLong(Long::longValue).toArray());
      }
      assertThat(got.get(1)).containsExactly(got.get(0));
      for (long n : List.of(100L, 101L, 102L, 103L, 104L, 105L)) {
        seen.put(n, true);
      }
      for (long n : seen.keySet()) {
        assertThat(s.resolve(SPACE, n)).as("number " + n).isEqualTo(file.resolve(SPACE, n));
      }
      assertThat(s.resolve(SPACE, 101)).isEqualTo(new InodeTable.Entry(1, "/b/x"));
      assertThat(s.resolve(SPACE, 103)).isEqualTo(new InodeTable.Entry(2, "/ab"));
      assertThat(s.resolve(SPACE, 104)).as("a listed name is not recorded").isNull();
      assertThat(s.known(SPACE, "/b/y")).isNull();
      assertThat(s.known(SPACE, "/target")).isEqualTo(102);
      // named handles (a file's number, its parent's number, its name) resolve in one script as the file's table does
      long b = file.known(SPACE, "/b");
      Object[][] named = {
        {101L, 999L, "x", new InodeTable.Entry(1, "/b/x")}, // recorded since: its entry, whatever the name says
        {106L, InodeTable.ROOT, "gone", new InodeTable.Entry(1, null)}, // removed: its tombstone
        {900L, b, "z", new InodeTable.Entry(1, "/b/z")}, // never recorded: the parent's path and the name
        {901L, InodeTable.ROOT, "fresh", new InodeTable.Entry(1, "/fresh")}, // under the root
        {902L, b, "x", null}, // another live number holds /b/x: replaced by a rename
        {903L, 424242L, "z", null}, // the parent was never given out
        {904L, 106L, "z", null}, // ... or was removed
      };
      for (Object[] q : named) {
        InodeTable.Entry want = (InodeTable.Entry) q[3];
        assertThat(s.resolveNamed(SPACE, (long) q[0], (long) q[1], (String) q[2])).as("named %s", q[0])
            .isEqualTo(file.resolveNamed(SPACE, (long) q[0], (long) q[1], (String) q[2])).isEqualTo(want);
      }
    }
  }

  @Test
  void concurrentFirstLookupsOnTwoGatewaysAgreeOnOneNumber() throws Exception {
    ValkeyServer v = server();
    InodeTable a = shared(v, "a");
    InodeTable b = shared(v, "b");
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        String path = "/f" + (i / 2); // each path asked once on each gateway, every one preferring the same number
        InodeTable t = i % 2 == 0 ? a : b;
        results.add(pool.submit((Callable<long[]>) () -> t.idOf(SPACE, path, 42)));
      }
      Map<Long, String> numbers = new HashMap<>();
      for (int i = 0; i < results.size(); i += 2) {
        long[] x = results.get(i).get();
        long[] y = results.get(i + 1).get();
        assertThat(y).as("/f" + (i / 2)).containsExactly(x);
        assertThat(numbers.put(x[0], "/f" + (i / 2))).as("number " + x[0] + " given twice").isNull();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aStoreThatIsDownIsAnErrorNeverANumber() throws Exception {
    ValkeyServer v = server();
    InodeTable a = shared(v, "a");
    a.idOf(SPACE, "/x", 50);
    v.stop();
    assertThatThrownBy(() -> a.idOf(SPACE, "/y", 51)).isInstanceOf(ClusterStoreException.class)
        .satisfies(e -> assertThat(((ClusterStoreException) e).kind())
            .isEqualTo(ClusterStoreException.Kind.UNREACHABLE));
    assertThatThrownBy(() -> a.resolve(SPACE, 50)).isInstanceOf(ClusterStoreException.class);
  }

  @Test
  void importCarriesAFilesTableOverAndRefusesAnotherTable() throws Exception {
    ValkeyServer v = server();
    Path state = dir.resolve("state");
    byte[] secret;
    try (InodeTable file = InodeTable.open(state.resolve("nfs").resolve("nfs-handles.mv"));
        InodeTable engine = InodeTable.open(state.resolve("inodes-00aa11bb22cc33dd.mv"))) {
      secret = file.secret();
      file.idOf(1, "/d/one", 500);
      file.idOf(1, "/d/two", 501);
      file.idOf(2, "/other", 500);
      file.removed(1, "/d/two");
      engine.idOf(InodeTable.ENGINE_SPACE, "/d/one", 500);
    }
    RedisStore s = store(v, "a");
    List<InodeImport.Result> r = new InodeImport(s).importAll(state);
    assertThat(r).containsExactly(new InodeImport.Result("nfs", 2, 1),
        new InodeImport.Result("engine-00aa11bb22cc33dd", 1, 0));
    InodeTable shared = InodeTable.shared(new RedisInodeNumberStore(s, "nfs"));
    assertThat(shared.secret()).isEqualTo(secret);
    assertThat(shared.resolve(1, 500)).isEqualTo(new InodeTable.Entry(1, "/d/one"));
    assertThat(shared.resolve(1, 501)).isEqualTo(new InodeTable.Entry(1, null));
    assertThat(shared.idOf(1, "/d/two", 501)).as("after the tombstone").containsExactly(501, 2);
    assertThat(shared.idOf(2, "/other", 9)).containsExactly(500, 1);
    shared.renamed(1, "/d", "/e"); // the imported paths are in the prefix index too
    assertThat(shared.resolve(1, 500)).isEqualTo(new InodeTable.Entry(1, "/e/one"));
    assertThat(InodeTable.shared(new RedisInodeNumberStore(s, "engine-00aa11bb22cc33dd"))
        .known(InodeTable.ENGINE_SPACE, "/d/one")).isEqualTo(500);
    assertThat(new InodeImport(s).importAll(state)).as("again: harmless").hasSize(2);

    Path another = dir.resolve("another");
    try (InodeTable file = InodeTable.open(another.resolve("nfs").resolve("nfs-handles.mv"))) {
      file.idOf(1, "/z", 777);
    }
    assertThatThrownBy(() -> new InodeImport(s).importAll(another)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already has another inode table 'nfs'").hasMessageContaining("nothing was written");
    assertThat(shared.resolve(1, 777)).isNull();
  }
}
