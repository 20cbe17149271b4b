package io.ossgw.app.cluster;

import io.ossgw.core.cluster.UploadRecordStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.HashMap;
import java.util.Map;

/**
 * The serving node's open multipart uploads of one bucket in Valkey/Redis: one hash, {@code
 * ossgw:NAME:uploads:BUCKET}, upload id to {@code TOKEN\nKEY} (the fencing token it was initiated under, the object
 * key). A hash field is a few dozen bytes; uploads are open only while a file is being written, so the hash stays
 * small.
 */
public final class RedisUploadRecordStore implements UploadRecordStore {
  private final RedisStore store;
  private final String key;

  /**
   * @param store the cluster store
   * @param bucket the OSS bucket the uploads are in
   */
  public RedisUploadRecordStore(RedisStore store, String bucket) {
    this.store = store;
    this.key = store.settings().key("uploads:" + bucket);
  }

  @Override
  public void put(String uploadId, Upload upload) {
    store.call("uploads_put", Request.cmd(Command.HSET).arg(key).arg(uploadId).arg(upload.token() + "\n" + upload.key()),
        store.settings().timeout());
  }

  @Override
  public void remove(String uploadId) {
    store.call("uploads_remove", Request.cmd(Command.HDEL).arg(key).arg(uploadId), store.settings().timeout());
  }

  @Override
  public Map<String, Upload> loadAll() {
    Response r = store.call("uploads_load", Request.cmd(Command.HGETALL).arg(key), store.settings().timeout());
    Map<String, Upload> out = new HashMap<>();
    RedisStore.hashFields(r).forEach((field, value) -> add(out, field, value.toString()));
    return out;
  }

  private static void add(Map<String, Upload> out, String uploadId, String value) {
    int nl = value.indexOf('\n');
    if (nl > 0) {
      try {
        out.put(uploadId, new Upload(value.substring(nl + 1), Long.parseLong(value.substring(0, nl))));
      } catch (NumberFormatException e) {
        // not ours: left alone
      }
    }
  }
}
