package io.ossgw.core.engine;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.cache.MetaStore;
import io.ossgw.core.cache.MvMetaStore;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.diskcache.CachingObjectStore;
import io.ossgw.core.diskcache.DiskCache;
import io.ossgw.core.inode.InodeNumbers;
import io.ossgw.core.inode.InodeTable;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.observe.EngineObserver;
import io.ossgw.core.observe.FrontEndFileSystem;
import io.ossgw.core.observe.ObservedObjectStore;
import io.ossgw.core.observe.Observation;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RetryingObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.store.tls.TlsErrors;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.core.write.OrphanUploads;
import io.ossgw.core.write.RecordingObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * One running OSS engine: the shared object-store client, caches, memory budget and the {@link VirtualFileSystem}
 * every front end of one bucket/prefix drives (FUSE and NFS of the same mount share it).
 *
 * <p>{@link #start} checks the bucket the way ossfs does at mount time (one ListObjectsV2 with {@code max-keys=1}
 * under the prefix): a missing bucket or bad credentials fail here with a clear message, before anything is mounted.
 * A prefix that does not exist yet is fine.
 */
public final class Engine implements AutoCloseable {
  private final EngineConfig config;
  private final ObjectStore store;
  private final VirtualFileSystem fs;
  private final MemoryBudget budget;
  private OssFileSystem oss;
  private DiskCache diskCache;
  private MetaStore metaStore = MetaStore.NONE;
  private EngineObserver observer = EngineObserver.NONE;
  private final ConcurrentHashMap<String, FrontEndFileSystem> frontEnds = new ConcurrentHashMap<>();

  private Engine(EngineConfig config, ObjectStore store, VirtualFileSystem fs, MemoryBudget budget) {
    this.config = config;
    this.store = store;
    this.fs = fs;
    this.budget = budget;
  }

  /** The memory budget of read-ahead and upload buffers (bytes in use, peak, capacity). */
  public MemoryBudget memoryBudget() {
    return budget;
  }

  /**
   * Connects to OSS, checks the bucket and builds the file system.
   *
   * @throws EngineException with a user-facing message: no such bucket, access denied, endpoint unreachable
   */
  public static Engine start(EngineConfig config) {
    return start(config, EngineObserver.NONE);
  }

  /**
   * As {@link #start(EngineConfig)}, reporting OSS request attempts, retries and cache events to {@code observer}
   * (see {@link io.ossgw.core.observe}).
   */
  public static Engine start(EngineConfig config, EngineObserver observer) {
    return start(config, observer, UnaryOperator.identity(), UnaryOperator.identity());
  }

  /**
   * As {@link #start(EngineConfig, EngineObserver)} for a gateway in a cluster (issue 23): {@code writeGate} wraps the
   * OSS client inside the retries, so every attempt passes it ({@link io.ossgw.core.cluster.FencedObjectStore}), and
   * {@code decorate} wraps the file system every front end sees
   * ({@link io.ossgw.core.cluster.PublishingFileSystem}).
   */
  public static Engine start(EngineConfig config, EngineObserver observer, UnaryOperator<ObjectStore> writeGate,
      UnaryOperator<VirtualFileSystem> decorate) {
    return start(config, observer, writeGate, decorate, null);
  }

  /**
   * As {@link #start(EngineConfig, EngineObserver, UnaryOperator, UnaryOperator)} with the inode table in a cluster's
   * store (issue 23 item 1) when {@code sharedInodes} is not null: it gets the table's name ({@code engine-<mount id>})
   * and gives the store's table ({@link InodeTable#shared}); null keeps the state directory's file.
   */
  public static Engine start(EngineConfig config, EngineObserver observer, UnaryOperator<ObjectStore> writeGate,
      UnaryOperator<VirtualFileSystem> decorate,
      java.util.function.Function<String, io.ossgw.core.cluster.InodeNumberStore> sharedInodes) {
    ObjectStore raw = writeGate.apply(new ObservedObjectStore(
        io.ossgw.core.store.lean.LeanDataStore.wrap(new AliyunObjectStore(config), config), observer));
    ObjectStore store = new RetryingObjectStore(raw, config.retries(), 100, 5_000, (op, e, n) -> observer.ossRetry(op));
    try {
      checkBucket(store, config);
      return build(config, store, Ticker.systemTicker(), observer, decorate, sharedInodes);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Builds an engine over a given store (tests and decorators); no bucket check. */
  public static Engine over(EngineConfig config, ObjectStore store) {
    return over(config, store, Ticker.systemTicker());
  }

  /** As {@link #over(EngineConfig, ObjectStore)} with the cache clock given (tests move it instead of sleeping). */
  public static Engine over(EngineConfig config, ObjectStore store, Ticker ticker) {
    return over(config, store, ticker, EngineObserver.NONE);
  }

  /** As {@link #over(EngineConfig, ObjectStore, Ticker)}; the caches report to {@code observer}. */
  public static Engine over(EngineConfig config, ObjectStore store, Ticker ticker, EngineObserver observer) {
    return build(config, store, ticker, observer, UnaryOperator.identity(), null);
  }

  /** As {@link #over(EngineConfig, ObjectStore, Ticker, EngineObserver)}, {@code decorate} wrapping the file system. */
  public static Engine over(EngineConfig config, ObjectStore store, Ticker ticker, EngineObserver observer,
      UnaryOperator<VirtualFileSystem> decorate) {
    return build(config, store, ticker, observer, decorate, null);
  }

  private static Engine build(EngineConfig config, ObjectStore store, Ticker ticker, EngineObserver observer,
      UnaryOperator<VirtualFileSystem> decorate,
      java.util.function.Function<String, io.ossgw.core.cluster.InodeNumberStore> sharedInodes) {
    MemoryBudget budget = new MemoryBudget(MemoryBudget.capacity(config.prefetchLimit(), config.memoryLimit()));
    BufferPool pool = new BufferPool((int) config.chunkSize(), budget);
    BufferPool writePool = writeStagingPool(budget);
    DiskCache diskCache = openDiskCache(config, observer);
    MetaStore metaStore = config.stateDir() == null ? MetaStore.NONE : MvMetaStore.open(metaStoreFile(config));
    ObjectStore data = new RecordingObjectStore(diskCache == null ? store : new CachingObjectStore(store, diskCache),
        metaStore.uploads());
    abortIncompleteUploads(config, data, metaStore);
    InodeTable inodes = sharedInodes != null ? InodeTable.shared(sharedInodes.apply(inodeTableName(config)))
        : openInodeTable(config);
    OssFileSystem oss = Observation.with(observer,
        () -> new OssFileSystem(config, data, pool, writePool, metaStore, ticker));
    VirtualFileSystem fs = decorate.apply(
        Observation.with(observer, () -> new InodeNumbers(new DirectoryTimes(oss, ticker), inodes)));
    Engine e = new Engine(config, store, fs, budget);
    e.oss = oss;
    e.diskCache = diskCache;
    e.observer = observer;
    e.metaStore = metaStore;
    return e;
  }

  /** Chunk size of write staging in memory: one libfuse 2 WRITE, and the size a small file rounds up to. */
  static final int WRITE_CHUNK = 128 * 1024;

  /**
   * The buffers files being written are staged in (a quarter of the memory budget; read-ahead keeps the rest), or null
   * when {@code -Dio.ossgw.write.memory=false} turns staging in memory off (every write goes to the spool, as before
   * issue 14; for measurements).
   */
  static BufferPool writeStagingPool(MemoryBudget budget) {
    if (!Boolean.parseBoolean(System.getProperty("io.ossgw.write.memory", "true"))) {
      return null;
    }
    return new BufferPool(WRITE_CHUNK, budget, budget.capacity() / 4);
  }

  /**
   * The mount's inode table ({@code <state_dir>/inodes-<mount id>.mv}), in memory without a state directory or when
   * another process holds the file (a second gateway on the same mount): numbers then last as long as this process.
   */
  private static InodeTable openInodeTable(EngineConfig config) {
    if (config.stateDir() == null) {
      return InodeTable.open(null);
    }
    Path file = config.stateDir().resolve("inodes-" + mountId(config) + ".mv");
    try {
      return InodeTable.open(file, 4);
    } catch (IllegalStateException e) {
      System.getLogger(Engine.class.getName()).log(System.Logger.Level.WARNING, e.getMessage()
          + "; inode numbers are kept in memory and change at the next start");
      return InodeTable.open(null);
    }
  }

  /** The name of the mount's inode table in a cluster's store: {@code engine-<mount id>}, the file's name's part. */
  public static String inodeTableName(EngineConfig config) {
    return "engine-" + mountId(config);
  }

  /**
   * Aborts the multipart uploads an earlier run of this mount left (recorded in its metadata store, so only with a
   * {@code state_dir} whose store this process holds), then, with {@code incomplete_mpu_abort=}, any upload under the
   * prefix older than its age. SEMANTICS.md "Incomplete multipart uploads".
   */
  private static void abortIncompleteUploads(EngineConfig config, ObjectStore data, MetaStore metaStore) {
    OrphanUploads.abortRecorded(data, metaStore.uploads());
    if (config.incompleteMpuAbort() != null) {
      OrphanUploads.abortOlderThan(data, config.prefix(), config.incompleteMpuAbort(), Instant.now());
    }
  }

  /**
   * Tests only: drops this engine as kill -9 would, releasing only what a dead process's kernel releases (the metadata
   * store's file lock, without committing) and the HTTP connections; open files are neither flushed nor aborted.
   */
  void crash() {
    if (fs instanceof InodeNumbers n) {
      n.crashTable();
    }
    if (metaStore instanceof MvMetaStore mv) {
      mv.closeImmediately();
    }
    store.close();
  }

  /**
   * The {@code use_cache} data cache of this mount, or null when off. A cache whose index another process holds (a
   * second gateway on the same mount) is skipped with a warning: the cache only saves requests.
   *
   * @throws EngineException when the cache directory is missing (check_cache_dir_exist) or cannot be created
   */
  private static DiskCache openDiskCache(EngineConfig config, EngineObserver observer) {
    if (config.diskCache() == null) {
      return null;
    }
    try {
      return DiskCache.open(config.diskCache(), config.bucket(), mountId(config), observer);
    } catch (IllegalStateException e) {
      System.getLogger(Engine.class.getName()).log(System.Logger.Level.WARNING, e.getMessage()
          + "; running without use_cache");
      return null;
    } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
      throw new EngineException(e.getMessage(), e);
    }
  }

  /** The persistent data cache ({@code use_cache=}), or null when off. */
  public DiskCache diskCache() {
    return diskCache;
  }

  /** One store file per endpoint, bucket and prefix: {@code <state_dir>/meta-<sha256 prefix>.mv}. */
  static Path metaStoreFile(EngineConfig config) {
    return config.stateDir().resolve("meta-" + mountId(config) + ".mv");
  }

  /** 16 hex digits of SHA-256 over endpoint, bucket and prefix: names this mount's state files. */
  static String mountId(EngineConfig config) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(
          (config.endpoint() + "\n" + config.bucket() + "\n" + config.prefix()).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void checkBucket(ObjectStore store, EngineConfig config) {
    String where = config.bucket() + " at " + config.endpoint();
    try {
      store.listObjectsV2(config.prefix(), "/", null, null, 1);
    } catch (StoreException e) {
      if (e.code() != null && e.code().startsWith("Tls")) { // TlsErrors: an untrusted server stays untrusted
        String m = e.getMessage();
        throw new EngineException("cannot check bucket " + where + ": " + m.substring(m.indexOf(": ") + 2)
            + (e.code().equals(TlsErrors.CERTIFICATE) ? " (README.md \"HTTPS\": add the CA to the JVM trust store "
                + "with -Djavax.net.ssl.trustStore=, or to the system CA bundle)" : ""), e);
      }
      String msg = switch (e.kind()) {
        case NO_SUCH_BUCKET -> "bucket " + where + " does not exist (NoSuchBucket)";
        case ACCESS_DENIED -> "access to bucket " + where + " denied (" + e.code()
            + "): check the AccessKey ID and secret (passwd_file=, OSS_ACCESS_KEY_ID/OSS_ACCESS_KEY_SECRET)"
            + (config.signatureV4() ? " and region=" + config.region() : "");
        case TRANSIENT -> "cannot reach " + config.endpoint() + " (" + e.code() + "): check url= and the network";
        default -> "bucket check of " + where + " failed: " + e.getMessage();
      };
      throw new EngineException(msg, e);
    }
  }

  /**
   * Drops what this engine caches about {@code path} (and, with {@code tree}, everything below it) and its parent's
   * listing, so the next look-up asks OSS: another gateway of the cluster changed it (issue 23). Open handles keep
   * the version they pinned.
   */
  public void invalidate(String path, boolean tree) {
    oss.invalidate(path, tree);
  }

  /** Drops every cached attribute and listing (the invalidation channel was down: messages may have been lost). */
  public void invalidateAll() {
    oss.invalidate("/", true);
  }

  /** The file system all front ends of this engine share. */
  public VirtualFileSystem fileSystem() {
    return fs;
  }

  /**
   * The file system as front end {@code frontEnd} ({@code fuse}, {@code nfs}, {@code smb}) sees it: the same file
   * system, counting the bytes that front end reads and writes (one view per name, shared by its callers).
   */
  public VirtualFileSystem fileSystem(String frontEnd) {
    return frontEnds.computeIfAbsent(frontEnd, f -> new FrontEndFileSystem(fs, f));
  }

  /** The front-end views handed out by {@link #fileSystem(String)} so far. */
  public List<FrontEndFileSystem> frontEnds() {
    return List.copyOf(frontEnds.values());
  }

  /** The observer this engine reports to ({@link EngineObserver#NONE} if none). */
  public EngineObserver observer() {
    return observer;
  }

  /** The (retrying) object store. */
  public ObjectStore store() {
    return store;
  }

  public EngineConfig config() {
    return config;
  }

  /** Flushes open files, then closes the store and the data cache (deleting it with {@code del_cache}). */
  @Override
  public void close() {
    try {
      fs.close();
    } finally {
      try {
        store.close();
      } finally {
        if (diskCache != null) {
          diskCache.close();
        }
      }
    }
  }
}
