package io.ossgw.app.cluster;

import io.ossgw.core.cluster.InodeNumberStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;

/**
 * The shared inode-number table in Valkey/Redis (phase 2 puts it under the engine's inode table): per name space
 * {@code S}, hash {@code ossgw:NAME:ino:S:k} maps key to number, hash {@code ossgw:NAME:ino:S:n} number to key, and
 * {@code ossgw:NAME:ino:S:next} is the counter. Allocation is one Lua script: the key's number if it has one, else the
 * preferred number if no key holds it, else the counter's next free value; numbers travel as decimal strings (Lua's
 * numbers are doubles: a 64-bit hash would lose bits). On a full store (maxmemory) nothing is allocated and
 * {@link io.ossgw.core.cluster.ClusterStoreException.Kind#FULL} says so; the tables stay consistent (the script
 * writes both hashes or neither: the OOM check runs before the script starts).
 */
public final class RedisInodeNumberStore implements InodeNumberStore {
  static final String ALLOCATE = """
      local n = redis.call('HGET', KEYS[1], ARGV[1])
      if n then return n end
      local pick = ARGV[2]
      if pick == '0' or redis.call('HEXISTS', KEYS[2], pick) == 1 then
        repeat pick = tostring(redis.call('INCR', KEYS[3])) until pick ~= '1' and redis.call('HEXISTS', KEYS[2], pick) == 0
      end
      redis.call('HSET', KEYS[1], ARGV[1], pick)
      redis.call('HSET', KEYS[2], pick, ARGV[1])
      return pick
      """;
  static final String REMOVE = """
      local n = redis.call('HGET', KEYS[1], ARGV[1])
      if not n then return 0 end
      redis.call('HDEL', KEYS[1], ARGV[1])
      redis.call('HDEL', KEYS[2], n)
      return 1
      """;

  private final RedisStore store;

  public RedisInodeNumberStore(RedisStore store) {
    this.store = store;
  }

  private String k(String space, String part) {
    return store.settings().key("ino:" + space + ":" + part);
  }

  @Override
  public long numberOf(String space, String key, long preferred) {
    Response r = store.call("inode_allocate", Request.cmd(Command.EVAL).arg(ALLOCATE).arg(3).arg(k(space, "k"))
        .arg(k(space, "n")).arg(k(space, "next")).arg(key).arg(Long.toString(Math.max(0, preferred))),
        store.settings().timeout());
    return Long.parseLong(r.toString());
  }

  @Override
  public long known(String space, String key) {
    Response r = store.call("inode_get", Request.cmd(Command.HGET).arg(k(space, "k")).arg(key),
        store.settings().timeout());
    return r == null ? 0 : Long.parseLong(r.toString());
  }

  @Override
  public String keyOf(String space, long number) {
    Response r = store.call("inode_get", Request.cmd(Command.HGET).arg(k(space, "n")).arg(Long.toString(number)),
        store.settings().timeout());
    return r == null ? null : r.toString();
  }

  @Override
  public void removed(String space, String key) {
    store.call("inode_remove", Request.cmd(Command.EVAL).arg(REMOVE).arg(2).arg(k(space, "k")).arg(k(space, "n"))
        .arg(key), store.settings().timeout());
  }
}
