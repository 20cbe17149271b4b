package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClientRecordStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.HashMap;
import java.util.Map;

/**
 * Records by key in Valkey/Redis, one hash per kind: the NFSv4.1 client records ({@code ossgw:NAME:nfs4-clients},
 * client id to record bytes) and the NLM monitor list ({@code ossgw:NAME:nlm-hosts}, host to its line, and the NSM
 * state number).
 */
public final class RedisClientRecordStore implements ClientRecordStore {
  private final RedisStore store;
  private final String key;
  /** The operation's name in the store metrics: clients_put, nlm_hosts_put, ... */
  private final String op;

  /** The NFSv4.1 client records: hash {@code nfs4-clients}. */
  public RedisClientRecordStore(RedisStore store) {
    this(store, "nfs4-clients");
  }

  /** The records of hash {@code ossgw:NAME:<hash>}. */
  public RedisClientRecordStore(RedisStore store, String hash) {
    this.store = store;
    this.key = store.settings().key(hash);
    this.op = hash.equals("nfs4-clients") ? "clients" : hash.replace('-', '_');
  }

  @Override
  public void put(String clientId, byte[] record) {
    store.call(op + "_put", Request.cmd(Command.HSET).arg(key).arg(clientId).arg(record), store.settings().timeout());
  }

  @Override
  public void remove(String clientId) {
    store.call(op + "_remove", Request.cmd(Command.HDEL).arg(key).arg(clientId), store.settings().timeout());
  }

  @Override
  public Map<String, byte[]> loadAll() {
    Response r = store.call(op + "_load", Request.cmd(Command.HGETALL).arg(key), store.settings().timeout());
    Map<String, byte[]> out = new HashMap<>();
    RedisStore.hashFields(r).forEach((field, value) -> out.put(field, value.toBuffer().getBytes()));
    return out;
  }
}
