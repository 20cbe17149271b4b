package io.ossgw.core.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the NFSv4.1 client records that must survive a failover live (RFC 8881 §8.4.2.1: the server must know after a
 * restart which clients may reclaim): one opaque record per client owner, written at EXCHANGE_ID/CREATE_SESSION
 * confirmation and removed at DESTROY_CLIENTID or lease expiry. nfs-server's {@code v4.state.ClientStore} writes
 * through it in a cluster; the taking-over node {@link #loadAll}s before its grace period. {@link Memory} is the
 * single-process form (records last as long as the process); gateway-app has the Valkey/Redis one (one hash per
 * cluster); {@link #fenced} keeps a node that lost the lease from changing the records its successor serves from.
 */
public interface ClientRecordStore {
  /** Writes (or replaces) the record of a client. @throws ClusterStoreException the store failed */
  void put(String clientId, byte[] record);

  /** Removes a client's record (absent is fine). @throws ClusterStoreException the store failed */
  void remove(String clientId);

  /** Every record, by client id (a copy). @throws ClusterStoreException the store failed */
  Map<String, byte[]> loadAll();

  /**
   * The records of {@code store} changed only while {@code fence} is valid: a node that lost the lease (its NFS
   * server not stopped yet, its reaper expiring the clients that moved to the new holder) removes nothing, and a
   * write is refused with {@link ClusterStoreException} ({@link ClusterStoreException.Kind#OTHER}). Loading passes.
   */
  static ClientRecordStore fenced(ClientRecordStore store, Fence fence) {
    return new ClientRecordStore() {
      @Override
      public void put(String clientId, byte[] record) {
        if (!fence.valid()) {
          throw new ClusterStoreException(ClusterStoreException.Kind.OTHER,
              "client record " + clientId + " not written: this gateway does not hold the cluster lease (fenced)",
              null);
        }
        store.put(clientId, record);
      }

      @Override
      public void remove(String clientId) {
        if (fence.valid()) {
          store.remove(clientId);
        }
      }

      @Override
      public Map<String, byte[]> loadAll() {
        return store.loadAll();
      }
    };
  }

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
