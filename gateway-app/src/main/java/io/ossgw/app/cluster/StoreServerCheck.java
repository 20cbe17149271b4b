package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClusterStoreException;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the cluster store's own settings once at start and says which of them put the shared state at risk
 * (docs/deploy.md "The store"): an eviction policy other than {@code noeviction} may evict an inode table's keys
 * (clients' handles then go STALE) or the lease; a store that persists nothing ({@code appendonly no} and no
 * {@code save} points) loses the inode tables at its next restart. Managed stores often refuse {@code CONFIG}
 * (Tair/ApsaraDB rename or disable it): then nothing is said beyond a debug line.
 */
final class StoreServerCheck {
  private StoreServerCheck() {}

  /**
   * The warnings for these settings (empty when all is well).
   *
   * @param policy {@code maxmemory-policy} (e.g. noeviction, allkeys-lru), or null when unknown
   * @param appendonly {@code appendonly} (yes/no), or null when unknown
   * @param save {@code save} (e.g. "3600 1 300 100", or "" for none), or null when unknown
   */
  static List<String> warnings(String policy, String appendonly, String save) {
    List<String> out = new ArrayList<>();
    if (policy != null && !policy.equals("noeviction")) {
      out.add("the cluster store's maxmemory-policy is " + policy + ": when it fills it may evict the inode tables "
          + "(NFS clients' handles then go STALE) or the lease; set maxmemory-policy noeviction (a full store then "
          + "refuses new names with ENOSPC and loses nothing)");
    }
    if ("no".equals(appendonly) && save != null && save.isBlank()) {
      out.add("the cluster store persists nothing (appendonly no, no save points): its next restart loses the inode "
          + "tables and every NFS client's handles go STALE; run it with appendonly yes");
    }
    return out;
  }

  /**
   * Asks the store ({@code CONFIG GET}) and returns the warnings.
   *
   * @throws ClusterStoreException the store did not answer, or refused CONFIG
   */
  static List<String> check(RedisStore store) {
    return warnings(config(store, "maxmemory-policy"), config(store, "appendonly"), config(store, "save"));
  }

  private static String config(RedisStore store, String key) {
    Response r = store.call("config_get", Request.cmd(Command.CONFIG).arg("GET").arg(key), store.settings().timeout());
    if (r == null || r.size() == 0) {
      return null;
    }
    try {
      if (r.containsKey(key)) { // RESP3: a map
        return String.valueOf(r.get(key));
      }
    } catch (RuntimeException notAMap) {
      // RESP2: [key, value]
    }
    return r.size() >= 2 ? String.valueOf(r.get(1)) : null;
  }
}
