package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.AK;
import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.SK;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.cluster.EngineInvalidator;
import io.ossgw.core.cluster.Fence;
import io.ossgw.core.cluster.FencedObjectStore;
import io.ossgw.core.cluster.Invalidation;
import io.ossgw.core.cluster.Lease;
import io.ossgw.core.cluster.MemoryInvalidationChannel;
import io.ossgw.core.cluster.MemoryLeaseStore;
import io.ossgw.core.cluster.PublishingFileSystem;
import io.ossgw.core.cluster.UploadRecordStore;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.observe.EngineObserver;
import io.ossgw.core.store.ContentSource;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.WriteMeta;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engines on one bucket as two gateways of a cluster would run them (issue 23): changes through one drop the
 * other's cached attributes and listings through the invalidation channel (active mode), and the write gate keeps a
 * node without the lease from writing anything to OSS (fencing).
 */
class ClusterEngineTest extends GatewayFixture {
  @TempDir Path stateB;
  final MemoryInvalidationChannel.Bus bus = new MemoryInvalidationChannel.Bus();
  final List<Engine> started = new ArrayList<>();

  @AfterEach
  void closeReplicas() {
    started.reversed().forEach(Engine::close);
  }

  EngineConfig config(Path stateDir, String prefix) {
    return EngineConfig.fromOptions(BUCKET, prefix, MountOptions.parse(List.of("url=" + gw.emu.endpoint(), "retries=2",
        "stat_cache_expire=600")), new Credentials(AK, SK), 1000, 1000, stateDir);
  }

  /** One gateway of the cluster: an engine with the write gate and the publisher, subscribed to the bus. */
  Engine replica(String node, Path stateDir, String prefix, Fence fence) {
    EngineConfig c = config(stateDir, prefix);
    MemoryInvalidationChannel channel = new MemoryInvalidationChannel(bus, node);
    Engine e = Engine.start(c, EngineObserver.NONE, s -> new FencedObjectStore(s, fence),
        fs -> new PublishingFileSystem(fs, channel, node, c.bucket(), c.prefix()));
    started.add(e);
    EngineInvalidator invalidator = new EngineInvalidator();
    invalidator.add(e);
    channel.subscribe(invalidator);
    return e;
  }

  @Test
  void aFileWrittenThroughOneReplicaIsSeenThroughTheOtherAtOnce() {
    VirtualFileSystem a = replica("a", state, "", Fence.ALWAYS).fileSystem();
    VirtualFileSystem b = replica("b", stateB, "", Fence.ALWAYS).fileSystem();
    // b caches "no such file" and the root's listing for 600 s
    assertThatThrownBy(() -> b.getattr("/report.csv")).isInstanceOf(FsException.class);
    assertThat(b.readdir("/").entries()).isEmpty();
    writeFile(a, "/report.csv", utf8("v1"));
    assertThat(b.getattr("/report.csv").size()).isEqualTo(2);
    assertThat(b.readdir("/").entries()).extracting(x -> x.name()).containsExactly("report.csv");
    // a rewrite through a: b's cached attributes go, the new bytes are read
    writeFile(a, "/report.csv", utf8("version 2"));
    assertThat(readFile(b, "/report.csv")).isEqualTo(utf8("version 2"));
    a.unlink("/report.csv");
    assertThatThrownBy(() -> b.getattr("/report.csv")).isInstanceOf(FsException.class)
        .extracting(x -> ((FsException) x).errno()).isEqualTo(Errno.ENOENT);
  }

  @Test
  void withoutTheChannelTheOtherReplicaKeepsItsCachedAnswer() {
    VirtualFileSystem a = replica("a", state, "", Fence.ALWAYS).fileSystem();
    Engine lone = Engine.start(config(stateB, ""));
    started.add(lone);
    VirtualFileSystem b = lone.fileSystem();
    assertThatThrownBy(() -> b.getattr("/report.csv")).isInstanceOf(FsException.class);
    writeFile(a, "/report.csv", utf8("v1"));
    // the control: without an invalidation the negative entry stands for stat_cache_expire
    assertThatThrownBy(() -> b.getattr("/report.csv")).isInstanceOf(FsException.class);
    assertThat(bus.published).containsExactly(new Invalidation("a", BUCKET, "report.csv", false));
  }

  @Test
  void directoryRenamesAndMountsOfASubPathAreInvalidatedByKey() {
    VirtualFileSystem a = replica("a", state, "", Fence.ALWAYS).fileSystem();
    a.mkdir("/team", 0755, USER);
    a.mkdir("/team/docs", 0755, USER);
    writeFile(a, "/team/docs/a.txt", utf8("a"));
    VirtualFileSystem b = replica("b", stateB, "team/", Fence.ALWAYS).fileSystem();
    assertThat(b.readdir("/docs").entries()).extracting(x -> x.name()).containsExactly("a.txt");
    assertThatThrownBy(() -> b.getattr("/papers")).isInstanceOf(FsException.class);
    a.rename("/team/docs", "/team/papers");
    assertThat(b.readdir("/").entries()).extracting(x -> x.name()).containsExactly("papers");
    assertThat(b.getattr("/papers/a.txt").size()).isEqualTo(1);
    assertThatThrownBy(() -> b.getattr("/docs/a.txt")).isInstanceOf(FsException.class);
    assertThat(bus.published).contains(new Invalidation("a", BUCKET, "team/docs", true),
        new Invalidation("a", BUCKET, "team/papers", true));
  }

  @Test
  void onlyMutationsThatSucceededArePublished() {
    VirtualFileSystem a = replica("a", state, "", Fence.ALWAYS).fileSystem();
    assertThatThrownBy(() -> a.unlink("/missing")).isInstanceOf(FsException.class);
    a.readdir("/");
    FileHandle h = a.create("/empty", 0644, OpenFlags.READ_WRITE, false, USER);
    assertThat(bus.published).isEmpty(); // nothing is in OSS before the close
    a.release(h);
    assertThat(bus.published).containsExactly(new Invalidation("a", BUCKET, "empty", false));
  }

  @Test
  void aReplicaWithoutTheLeaseWritesNothingToOss() {
    AtomicLong now = new AtomicLong();
    MemoryLeaseStore leases = new MemoryLeaseStore(now::get);
    Lease lease = new Lease(leases, "a", Duration.ofSeconds(5), Duration.ofSeconds(1), now::get, listener());
    VirtualFileSystem a = replica("a", state, "", lease).fileSystem();
    // standby: every write is refused before it reaches OSS, as EIO
    assertThatThrownBy(() -> writeFile(a, "/f", utf8("x"))).isInstanceOf(FsException.class)
        .extracting(x -> ((FsException) x).errno()).isEqualTo(Errno.EIO);
    assertThatThrownBy(() -> a.mkdir("/d", 0755, USER)).isInstanceOf(FsException.class);
    assertThat(gw.sdk.doesObjectExist(BUCKET, "f")).isFalse();
    assertThat(gw.sdk.doesObjectExist(BUCKET, "d/")).isFalse();
    lease.step(); // holder
    writeFile(a, "/g", utf8("y"));
    assertThat(gw.objectBytes("g")).isEqualTo(utf8("y"));
    // the store is cut off: past the local validity, writes stop though no step ran yet
    leases.down(true);
    now.addAndGet(Duration.ofMillis(4600).toNanos());
    assertThat(lease.valid()).isFalse();
    assertThatThrownBy(() -> writeFile(a, "/h", utf8("z"))).isInstanceOf(FsException.class);
    assertThatThrownBy(() -> a.unlink("/g")).isInstanceOf(FsException.class);
    assertThat(gw.sdk.doesObjectExist(BUCKET, "h")).isFalse();
    assertThat(gw.objectBytes("g")).isEqualTo(utf8("y"));
  }

  @Test
  void aMultipartUploadIsBoundToTheTokenItBeganUnder() {
    AtomicLong now = new AtomicLong();
    MemoryLeaseStore leases = new MemoryLeaseStore(now::get);
    Lease lease = new Lease(leases, "a", Duration.ofSeconds(5), Duration.ofSeconds(1), now::get, listener());
    lease.step();
    ObjectStore raw = new AliyunObjectStore(config(state, ""));
    try {
      FencedObjectStore fenced = new FencedObjectStore(raw, lease);
      String id = fenced.initiateMultipartUpload("big", new WriteMeta("application/octet-stream", Map.of()));
      fenced.uploadPart("big", id, 1, ContentSource.ofBytes(new byte[1024], 0, 1024));
      leases.release("a", 1, Duration.ofSeconds(1)); // lost (the key vanished) ...
      now.addAndGet(Duration.ofSeconds(1).toNanos());
      lease.step();
      lease.step(); // ... and taken again, under a new token
      assertThat(lease.token()).isEqualTo(2);
      assertThatThrownBy(() -> fenced.uploadPart("big", id, 2, ContentSource.ofBytes(new byte[1024], 0, 1024)))
          .isInstanceOf(StoreException.class).hasMessageContaining("UploadPart big refused")
          .extracting(x -> ((StoreException) x).code()).isEqualTo(FencedObjectStore.LEASE_LOST);
      assertThatThrownBy(() -> fenced.completeMultipartUpload("big", id, List.of()))
          .isInstanceOf(StoreException.class);
      fenced.abortMultipartUpload("big", id); // aborting adds nothing: allowed
      assertThat(fenced.openUploads()).isZero();
      assertThat(gw.sdk.doesObjectExist(BUCKET, "big")).isFalse();
    } finally {
      raw.close();
    }
  }

  /** A fence that holds {@code token} while {@code valid} is set. */
  private static Fence holding(long token, java.util.concurrent.atomic.AtomicBoolean valid) {
    return new Fence() {
      @Override
      public boolean valid() {
        return valid.get();
      }

      @Override
      public long token() {
        return valid.get() ? token : 0;
      }

      @Override
      public boolean validFor(long t) {
        return valid.get() && t == token;
      }
    };
  }

  private java.util.Set<String> openUploadIds(ObjectStore s) {
    return s.listMultipartUploads("", null, null, 1000).uploads().stream()
        .map(io.ossgw.core.store.UploadListing.Upload::uploadId).collect(java.util.stream.Collectors.toSet());
  }

  @Test
  void theNextHolderAbortsTheUploadsTheFormerOneLeftAndNoOther() {
    ObjectStore raw = new AliyunObjectStore(config(state, ""));
    try {
      UploadRecordStore records = new UploadRecordStore.Memory();
      var aHolds = new java.util.concurrent.atomic.AtomicBoolean(true);
      FencedObjectStore a = new FencedObjectStore(raw, holding(1, aHolds), records);
      WriteMeta meta = new WriteMeta("application/octet-stream", Map.of());
      String left = a.initiateMultipartUpload("a-big", meta);
      a.uploadPart("a-big", left, 1, ContentSource.ofBytes(new byte[1024], 0, 1024));
      String done = a.initiateMultipartUpload("a-done", meta);
      a.abortMultipartUpload("a-done", done);
      String foreign = raw.initiateMultipartUpload("not-ours", meta); // another program's upload in the bucket
      assertThat(records.loadAll()).containsOnlyKeys(left);
      aHolds.set(false); // a dies (its lease expires), b takes over under token 2
      FencedObjectStore b = new FencedObjectStore(raw, holding(2, new java.util.concurrent.atomic.AtomicBoolean(true)),
          records);
      String mine = b.initiateMultipartUpload("b-big", meta);
      assertThat(b.abortOrphans(2)).isEqualTo(1);
      assertThat(openUploadIds(raw)).contains(mine, foreign).doesNotContain(left);
      assertThat(records.loadAll()).containsOnlyKeys(mine);
      // a node that holds an older token (fenced, not yet stopped) never aborts a live holder's upload
      assertThat(a.abortOrphans(1)).isZero();
      assertThat(openUploadIds(raw)).contains(mine);
      raw.abortMultipartUpload("not-ours", foreign);
      b.abortMultipartUpload("b-big", mine);
    } finally {
      raw.close();
    }
  }

  @Test
  void anUploadThatCannotBeWrittenDownIsAbortedAndItsInitiationFails() {
    ObjectStore raw = new AliyunObjectStore(config(state, ""));
    try {
      UploadRecordStore down = new UploadRecordStore() {
        @Override
        public void put(String uploadId, Upload upload) {
          throw new io.ossgw.core.cluster.ClusterStoreException(
              io.ossgw.core.cluster.ClusterStoreException.Kind.FULL, "store full (test)", null);
        }

        @Override
        public void remove(String uploadId) {}

        @Override
        public Map<String, Upload> loadAll() {
          return Map.of();
        }
      };
      FencedObjectStore a = new FencedObjectStore(raw, Fence.ALWAYS, down);
      assertThatThrownBy(() -> a.initiateMultipartUpload("x", new WriteMeta("application/octet-stream", Map.of())))
          .isInstanceOf(StoreException.class).hasMessageContaining("store full")
          .extracting(x -> ((StoreException) x).code()).isEqualTo(FencedObjectStore.UPLOAD_NOT_RECORDED);
      assertThat(openUploadIds(raw)).isEmpty();
      assertThat(a.openUploads()).isZero();
    } finally {
      raw.close();
    }
  }

  private static Lease.Listener listener() {
    return new Lease.Listener() {
      @Override
      public void acquired(long token) {}

      @Override
      public void lost(long token, String reason) {}
    };
  }
}
