package io.ossgw.core.engine;

import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.store.ObjectStore;
import io.ossgw.core.store.RetryingObjectStore;
import io.ossgw.core.store.StoreException;
import io.ossgw.core.store.aliyun.AliyunObjectStore;
import io.ossgw.core.vfs.VirtualFileSystem;

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

  private Engine(EngineConfig config, ObjectStore store, VirtualFileSystem fs) {
    this.config = config;
    this.store = store;
    this.fs = fs;
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
    return new Engine(config, store, new OssFileSystem(config, store));
  }

  /** Builds an engine over a given store (tests and decorators); no bucket check. */
  public static Engine over(EngineConfig config, ObjectStore store) {
    return new Engine(config, store, new OssFileSystem(config, store));
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
