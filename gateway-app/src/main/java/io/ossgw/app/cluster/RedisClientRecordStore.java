package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClientRecordStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.HashMap;
import java.util.Map;

/** NFSv4.1 client records in Valkey/Redis: one hash, {@code ossgw:NAME:nfs4-clients}, client id to record bytes. */
public final class RedisClientRecordStore implements ClientRecordStore {
  private final RedisStore store;
  private final String key;

  public RedisClientRecordStore(RedisStore store) {
    this.store = store;
    this.key = store.settings().key("nfs4-clients");
  }

  @Override
  public void put(String clientId, byte[] record) {
    store.call("clients_put", Request.cmd(Command.HSET).arg(key).arg(clientId).arg(record), store.settings().timeout());
  }

  @Override
  public void remove(String clientId) {
    store.call("clients_remove", Request.cmd(Command.HDEL).arg(key).arg(clientId), store.settings().timeout());
  }

  @Override
  public Map<String, byte[]> loadAll() {
    Response r = store.call("clients_load", Request.cmd(Command.HGETALL).arg(key), store.settings().timeout());
    Map<String, byte[]> out = new HashMap<>();
    RedisStore.hashFields(r).forEach((field, value) -> out.put(field, value.toBuffer().getBytes()));
    return out;
  }
}
