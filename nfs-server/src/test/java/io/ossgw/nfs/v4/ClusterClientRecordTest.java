package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.nfs.v4.state.ClientStore;
import io.ossgw.nfs.v4.xdr.*;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The NFSv4.1 client record written to a cluster's store at CREATE_SESSION confirmation ({@link ClientStore#confirmed}):
 * an unreachable store makes the CREATE_SESSION NFS4ERR_DELAY and leaves the record unconfirmed, so the client's retry
 * of the same csa_sequence confirms it once the store is back; a full one confirms the client without a record.
 */
class ClusterClientRecordTest {
  /** The in-memory store, failing every call while {@link #down}. */
  private static final class FlakyStore implements ClientRecordStore {
    final ClientRecordStore.Memory records = new ClientRecordStore.Memory();
    volatile boolean down;
    volatile boolean full;

    private void check() {
      if (down) {
        throw new ClusterStoreException(ClusterStoreException.Kind.UNREACHABLE, "store down (test)", null);
      }
      if (full) {
        throw new ClusterStoreException(ClusterStoreException.Kind.FULL, "OOM (test)", null);
      }
    }

    @Override
    public void put(String clientId, byte[] record) {
      check();
      records.put(clientId, record);
    }

    @Override
    public void remove(String clientId) {
      check();
      records.remove(clientId);
    }

    @Override
    public Map<String, byte[]> loadAll() {
      check();
      return records.loadAll();
    }
  }

  @Test
  void aStoreFailureAtConfirmationIsDelayAndTheRetryConfirms() {
    V4Wire w = new V4Wire();
    FlakyStore store = new FlakyStore();
    w.table.onConfirm(ClientStore.inStore(store)::confirmed);
    EXCHANGE_ID4resok e = w.exchangeId(owner("linux-c", 1), ROOT);
    store.down = true;
    assertThat(w.createSession(e.clientid(), e.sequenceid(), attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4ERR_DELAY);
    assertThat(w.table.sessions()).isZero();
    assertThat(store.records.loadAll()).isEmpty();
    store.down = false;
    assertThat(w.createSession(e.clientid(), e.sequenceid(), attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4_OK);
    String key = HexFormat.of().formatHex("linux-c".getBytes(StandardCharsets.UTF_8));
    assertThat(store.records.loadAll()).containsOnlyKeys(key);
    assertThat(store.records.loadAll().get(key)).isEqualTo("linux-c".getBytes(StandardCharsets.UTF_8));
    // confirmed already: a store outage now does not touch the next CREATE_SESSION
    store.down = true;
    assertThat(w.createSession(e.clientid(), e.sequenceid() + 1, attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4_OK);
  }

  @Test
  void aFullStoreConfirmsTheClientUnrecorded() {
    V4Wire w = new V4Wire();
    FlakyStore store = new FlakyStore();
    w.table.onConfirm(ClientStore.inStore(store)::confirmed);
    EXCHANGE_ID4resok e = w.exchangeId(owner("linux-f", 1), ROOT);
    store.full = true; // does not pass by waiting: DELAY would keep the client from mounting
    assertThat(w.createSession(e.clientid(), e.sequenceid(), attrs(4, 4096), ROOT).status())
        .isEqualTo(Nfs4.NFS4_OK);
    store.full = false;
    assertThat(store.records.loadAll()).isEmpty();
  }

  @Test
  void aRecordWhoseValueIsNotItsOwnerIsIgnoredOnLoad() {
    ClientRecordStore.Memory m = new ClientRecordStore.Memory();
    m.put(HexFormat.of().formatHex(new byte[] {1, 2}), new byte[] {1, 2});
    m.put("zz", new byte[] {3});
    assertThat(ClientStore.inStore(m).loaded()).hasSize(1);
  }
}
