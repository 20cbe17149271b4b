package io.ossgw.app.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.app.config.ClusterConfig;
import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.Fence;
import io.ossgw.core.cluster.UploadRecordStore;
import io.ossgw.nfs.nlm.MonitorList;
import io.vertx.mutiny.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RedisClientRecordStore} (the NFSv4.1 client records a node taking the lease over loads) and
 * {@link RedisUploadRecordStore} (the open multipart uploads it aborts) on a real Valkey (or Redis) server the test
 * starts (issue 23 item 2): what one node writes the other loads, byte for byte, under the cluster's name; removing
 * works and an absent record is fine; another cluster's records are not seen; {@link ClientRecordStore#fenced} writes
 * nothing once the lease is lost; a store that is down is a {@link ClusterStoreException}.
 */
class RedisClientRecordStoreTest {
  @TempDir Path dir;
  final Vertx vertx = Vertx.vertx();
  final List<AutoCloseable> open = new ArrayList<>();

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

  RedisStore store(ValkeyServer v, String cluster, String node) {
    ClusterSettings s = new ClusterSettings(v.url(), false, ClusterConfig.Mode.STANDBY, cluster, node,
        Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ofSeconds(2), Optional.empty(), Optional.empty());
    RedisStore r = new RedisStore(vertx, s, RedisStore.Recorder.NONE);
    open.add(r);
    return r;
  }

  @Test
  void whatOneNodeWritesTheNextLoadsByteForByte() throws Exception {
    ValkeyServer v = server();
    ClientRecordStore a = new RedisClientRecordStore(store(v, "t", "a"));
    ClientRecordStore b = new RedisClientRecordStore(store(v, "t", "b"));
    ClientRecordStore other = new RedisClientRecordStore(store(v, "u", "c"));
    byte[] binary = new byte[256];
    for (int i = 0; i < binary.length; i++) {
      binary[i] = (byte) i; // co_ownerid is opaque: every byte value, NUL and invalid UTF-8 included
    }
    a.put("00ff", binary);
    a.put("6c696e7578", "linux".getBytes());
    assertThat(b.loadAll()).containsOnlyKeys("00ff", "6c696e7578");
    assertThat(b.loadAll().get("00ff")).isEqualTo(binary);
    assertThat(other.loadAll()).isEmpty();
    b.remove("00ff");
    b.remove("absent");
    assertThat(a.loadAll()).containsOnlyKeys("6c696e7578");
  }

  /**
   * The NLM monitor list (issue 23 item 2: SM_NOTIFY after a takeover) is a hash of its own beside the NFSv4.1
   * records: the node taking over loads the hosts the former holder recorded and raises the NSM state number, odd.
   */
  @Test
  void theNlmMonitorListIsAHashOfItsOwnAndEachNodeRaisesTheStateNumber() throws Exception {
    ValkeyServer v = server();
    ClientRecordStore v4 = new RedisClientRecordStore(store(v, "t", "a"));
    v4.put("6c696e7578", "linux".getBytes());
    MonitorList onA = MonitorList.inStore(new RedisClientRecordStore(store(v, "t", "a"), "nlm-hosts"),
        java.time.Clock.systemUTC());
    assertThat(onA.state()).isEqualTo(1);
    assertThat(onA.toNotify()).isEmpty();
    // a host as MonitorList writes it: its address, the gateway address it called, caller_name in hex ("hosta")
    new RedisClientRecordStore(store(v, "t", "a"), "nlm-hosts").put("hosta@10.0.0.7",
        "10.0.0.7 10.0.0.1 686f737461".getBytes());
    ClientRecordStore nlmOnB = new RedisClientRecordStore(store(v, "t", "b"), "nlm-hosts");
    MonitorList onB = MonitorList.inStore(nlmOnB, java.time.Clock.systemUTC());
    assertThat(onB.state()).isEqualTo(3);
    assertThat(onB.toNotify()).containsExactly(new MonitorList.Host("hosta", "10.0.0.7", "10.0.0.1"));
    onB.notified(onB.toNotify().getFirst());
    assertThat(nlmOnB.loadAll()).containsOnlyKeys(MonitorList.STATE_KEY);
    assertThat(new String(nlmOnB.loadAll().get(MonitorList.STATE_KEY))).isEqualTo("3");
    assertThat(v4.loadAll()).containsOnlyKeys("6c696e7578");
    assertThat(new RedisClientRecordStore(store(v, "u", "c"), "nlm-hosts").loadAll()).isEmpty();
  }

  @Test
  void aFencedNodeChangesNoRecord() throws Exception {
    ValkeyServer v = server();
    ClientRecordStore raw = new RedisClientRecordStore(store(v, "t", "a"));
    AtomicBoolean holds = new AtomicBoolean(true);
    Fence lease = new Fence() {
      @Override
      public boolean valid() {
        return holds.get();
      }

      @Override
      public long token() {
        return holds.get() ? 3 : 0;
      }

      @Override
      public boolean validFor(long token) {
        return holds.get() && token == 3;
      }
    };
    ClientRecordStore fenced = ClientRecordStore.fenced(raw, lease);
    fenced.put("aa", new byte[] {(byte) 0xaa});
    holds.set(false);
    fenced.remove("aa"); // the former holder's reaper: the new holder still needs it
    assertThatThrownBy(() -> fenced.put("bb", new byte[] {(byte) 0xbb})).isInstanceOf(ClusterStoreException.class)
        .hasMessageContaining("fenced");
    assertThat(raw.loadAll()).containsOnlyKeys("aa");
  }

  @Test
  void uploadsAreKeptPerClusterAndBucketWithTheirToken() throws Exception {
    ValkeyServer v = server();
    RedisStore s = store(v, "t", "a");
    UploadRecordStore one = new RedisUploadRecordStore(s, "bucket-1");
    UploadRecordStore two = new RedisUploadRecordStore(s, "bucket-2");
    one.put("UP1", new UploadRecordStore.Upload("dir/big file\u00e9", 7));
    one.put("UP2", new UploadRecordStore.Upload("x", 8));
    two.put("UP3", new UploadRecordStore.Upload("y", 9));
    UploadRecordStore next = new RedisUploadRecordStore(store(v, "t", "b"), "bucket-1");
    assertThat(next.loadAll()).containsOnlyKeys("UP1", "UP2");
    assertThat(next.loadAll().get("UP1")).isEqualTo(new UploadRecordStore.Upload("dir/big file\u00e9", 7));
    next.remove("UP1");
    assertThat(one.loadAll()).containsOnlyKeys("UP2");
    assertThat(new RedisUploadRecordStore(store(v, "u", "c"), "bucket-1").loadAll()).isEmpty();
  }

  @Test
  void aStoreThatIsDownIsAnError() throws Exception {
    ValkeyServer v = server();
    ClientRecordStore a = new RedisClientRecordStore(store(v, "t", "a"));
    a.put("aa", new byte[] {1});
    v.stop();
    assertThatThrownBy(() -> a.put("bb", new byte[] {2})).isInstanceOf(ClusterStoreException.class);
    assertThatThrownBy(a::loadAll).isInstanceOf(ClusterStoreException.class);
  }
}
