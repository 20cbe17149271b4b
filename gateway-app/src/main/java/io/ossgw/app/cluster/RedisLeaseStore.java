package io.ossgw.app.cluster;

import io.ossgw.core.cluster.LeaseStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The serving lease in Valkey/Redis: key {@code ossgw:NAME:lease} holds {@code NODE\nTOKEN} with a PX expiry the
 * store counts down; {@code ossgw:NAME:lease-token} counts acquisitions (the fencing tokens). Each operation is one Lua
 * script, which the store runs atomically: acquire (SET only when the key is absent, taking the next token),
 * compare-and-renew (PEXPIRE only when the key still holds this node and token) and compare-and-delete. Renewal is
 * flagged {@code allow-oom}: a full store must not fence a healthy holder (it only extends a key's expiry).
 */
public final class RedisLeaseStore implements LeaseStore {
  static final String ACQUIRE = """
      if redis.call('EXISTS', KEYS[1]) == 1 then return false end
      local t = redis.call('INCR', KEYS[2])
      redis.call('SET', KEYS[1], ARGV[1] .. '\\n' .. t, 'PX', ARGV[2])
      return t
      """;
  static final String RENEW = """
      #!lua flags=allow-oom
      if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
      return 0
      """;
  static final String RELEASE = """
      #!lua flags=allow-oom
      if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
      return 0
      """;

  private final RedisStore store;
  private final String leaseKey;
  private final String tokenKey;

  public RedisLeaseStore(RedisStore store) {
    this.store = store;
    this.leaseKey = store.settings().key("lease");
    this.tokenKey = store.settings().key("lease-token");
  }

  @Override
  public OptionalLong tryAcquire(String node, Duration ttl, Duration timeout) {
    Response r = store.call("lease_acquire", Request.cmd(Command.EVAL).arg(ACQUIRE).arg(2).arg(leaseKey).arg(tokenKey)
        .arg(node).arg(ttl.toMillis()), timeout);
    return r == null ? OptionalLong.empty() : OptionalLong.of(r.toLong());
  }

  @Override
  public boolean renew(String node, long token, Duration ttl, Duration timeout) {
    Response r = store.call("lease_renew", Request.cmd(Command.EVAL).arg(RENEW).arg(1).arg(leaseKey)
        .arg(node + "\n" + token).arg(ttl.toMillis()), timeout);
    return r != null && r.toLong() == 1;
  }

  @Override
  public void release(String node, long token, Duration timeout) {
    store.call("lease_release", Request.cmd(Command.EVAL).arg(RELEASE).arg(1).arg(leaseKey).arg(node + "\n" + token),
        timeout);
  }

  @Override
  public Optional<Holder> holder(Duration timeout) {
    Response r = store.call("lease_holder", Request.cmd(Command.GET).arg(leaseKey), timeout);
    if (r == null) {
      return Optional.empty();
    }
    String v = r.toString();
    int nl = v.lastIndexOf('\n');
    return nl < 0 ? Optional.empty() : Optional.of(new Holder(v.substring(0, nl), Long.parseLong(v.substring(nl + 1))));
  }
}
