package io.ossgw.core.engine;

import com.github.benmanes.caffeine.cache.Ticker;
import io.ossgw.core.cache.MetaStore;
import io.ossgw.core.cache.MvMetaStore;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.memory.BufferPool;
import io.ossgw.core.memory.MemoryBudget;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RetryingObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

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
    ObjectStore raw = new AliyunObjectStore(config);
    ObjectStore store = new RetryingObjectStore(raw, config.retries(), 100, 5_000, null);
    try {
      checkBucket(store, config);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return over(config, store);
  }

  /** Builds an engine over a given store (tests and decorators); no bucket check. */
  public static Engine over(EngineConfig config, ObjectStore store) {
    return over(config, store, Ticker.systemTicker());
  }

  /** As {@link #over(EngineConfig, ObjectStore)} with the cache clock given (tests move it instead of sleeping). */
  public static Engine over(EngineConfig config, ObjectStore store, Ticker ticker) {
    MemoryBudget budget = new MemoryBudget(MemoryBudget.defaultCapacity(config.prefetchLimit()));
    BufferPool pool = new BufferPool((int) config.chunkSize(), budget);
    MetaStore metaStore = config.stateDir() == null ? MetaStore.NONE : MvMetaStore.open(metaStoreFile(config));
    return new Engine(config, store, new OssFileSystem(config, store, pool, metaStore, ticker), budget);
  }

  /** One store file per endpoint, bucket and prefix: {@code <state_dir>/meta-<sha256 prefix>.mv}. */
  static Path metaStoreFile(EngineConfig config) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(
          (config.endpoint() + "\n" + config.bucket() + "\n" + config.prefix()).getBytes(StandardCharsets.UTF_8));
      return config.stateDir().resolve("meta-" + HexFormat.of().formatHex(d, 0, 8) + ".mv");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void checkBucket(ObjectStore store, EngineConfig config) {
    String where = config.bucket() + " at " + config.endpoint();
    try {
      store.listObjectsV2(config.prefix(), "/", null, null, 1);
    } catch (StoreException e) {
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

  /** The file system all front ends of this engine share. */
  public VirtualFileSystem fileSystem() {
    return fs;
  }

  /** The (retrying) object store. */
  public ObjectStore store() {
    return store;
  }

  public EngineConfig config() {
    return config;
  }

  /** Flushes open files, then closes the store. */
  @Override
  public void close() {
    try {
      fs.close();
    } finally {
      store.close();
    }
  }
}
