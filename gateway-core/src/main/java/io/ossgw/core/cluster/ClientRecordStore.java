package io.ossgw.core.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the NFSv4.1 client records that must survive a failover live (RFC 8881 §8.4.2.1: the server must know after a
 * restart which clients may reclaim): one opaque record per client owner, written at EXCHANGE_ID/CREATE_SESSION
 * confirmation and removed at DESTROY_CLIENTID or lease expiry. Phase 2 writes nfs-server's {@code v4.state.ClientStore}
 * through it; the taking-over node {@link #loadAll}s before its grace period. {@link Memory} is the single-process
 * form (records last as long as the process); gateway-app has the Valkey/Redis one (one hash per cluster).
 */
public interface ClientRecordStore {
  /** Writes (or replaces) the record of a client. @throws ClusterStoreException the store failed */
  void put(String clientId, byte[] record);

  /** Removes a client's record (absent is fine). @throws ClusterStoreException the store failed */
  void remove(String clientId);

  /** Every record, by client id (a copy). @throws ClusterStoreException the store failed */
  Map<String, byte[]> loadAll();

  /** Records in this process's memory. */
  final class Memory implements ClientRecordStore {
    private final ConcurrentHashMap<String, byte[]> records = new ConcurrentHashMap<>();

    @Override
    public void put(String clientId, byte[] record) {
      records.put(clientId, record.clone());
    }

    @Override
    public void remove(String clientId) {
      records.remove(clientId);
    }

    @Override
    public Map<String, byte[]> loadAll() {
      Map<String, byte[]> out = new java.util.HashMap<>();
      records.forEach((k, v) -> out.put(k, v.clone()));
      return out;
    }
  }
}
