package io.ossgw.nfs.v4.state;

import io.ossgw.core.cluster.ClientRecordStore;
import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.nfs.v4.xdr.Nfs4;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stable-storage record of NFSv4.1 clients (RFC 8881 §8.4.3, §8.6.3): the client owners (co_ownerid) that hold
 * open or lock state, kept in the state directory (file {@value #FILE}, next to the handle table) so that after a
 * restart the server knows who may reclaim and runs a grace period only when someone may.
 *
 * <p>An owner is written when one of its client records first gets state ({@link #recordState}) and removed when that
 * record is dropped (lease expiry, DESTROY_CLIENTID, a new boot of the client: {@link #forget}). The owners loaded at
 * start ({@link #loaded()}) stay in the file until the grace period ends ({@link #graceOver}), so a second restart
 * during grace keeps their right to reclaim. Without a state directory nothing is kept: no grace, no reclaim.
 *
 * <p>Format: a header line {@value #HEADER}, then one owner per line in lowercase hex; replaced atomically (written to
 * a temporary file, forced, renamed). At most {@link #MAX_OWNERS} owners are read. Thread-safe (one monitor; a write
 * happens once per client that gets state and once per client dropped).
 *
 * <p>In a cluster ({@link #inStore}, issue 23: {@code ossgw.cluster.store} in standby mode) the
 * owners live in the cluster's store instead, one record per owner (key: the owner in lowercase hex, value: the owner
 * bytes), so the node that takes the serving lease over knows who may reclaim. There an owner is written when
 * CREATE_SESSION confirms its client record ({@link #confirmed}; an unreachable store is NFS4ERR_DELAY and the
 * record stays unconfirmed), not at its first state: a client the holder confirmed a moment before it died may then reclaim on the
 * new holder as well (its OPENs of that moment may already have been granted).
 */
public final class ClientStore {
  /** The file's name in the state directory. */
  public static final String FILE = "nfs4-clients";
  static final String HEADER = "ossgw nfs4-clients 1";
  /** Most owners read from the file (the client table's own cap is 10,000). */
  static final int MAX_OWNERS = 100_000;
  private static final System.Logger LOG = System.getLogger(ClientStore.class.getName());

  private final Path file;
  /** The cluster's store of the records, or null (the file, or nothing). */
  private final ClientRecordStore records;
  private final Set<ByteBuffer> loaded;
  /** Owners whose current client record holds state, with that record's client id. */
  private final Map<ByteBuffer, Long> current = new HashMap<>();
  private final Set<ByteBuffer> keptFromBefore;

  private ClientStore(Path file, ClientRecordStore records, Set<ByteBuffer> loaded) {
    this.file = file;
    this.records = records;
    this.loaded = Set.copyOf(loaded);
    this.keptFromBefore = new HashSet<>(loaded);
  }

  /**
   * Reads the record in {@code dir}.
   *
   * @param dir the state directory, or null for a store that keeps nothing (and loads nothing)
   * @throws UncheckedIOException if the file exists and cannot be read
   */
  public static ClientStore open(Path dir) {
    if (dir == null) {
      return new ClientStore(null, null, Set.of());
    }
    Path f = dir.resolve(FILE);
    Set<ByteBuffer> owners = new LinkedHashSet<>();
    if (Files.exists(f)) {
      try {
        List<String> lines = Files.readAllLines(f, StandardCharsets.US_ASCII);
        if (lines.isEmpty() || !lines.getFirst().equals(HEADER)) {
          LOG.log(System.Logger.Level.WARNING, f + " is not an NFSv4 client record: ignored");
        } else {
          for (String line : lines.subList(1, Math.min(lines.size(), MAX_OWNERS + 1))) {
            try {
              owners.add(ByteBuffer.wrap(HexFormat.of().parseHex(line.strip())));
            } catch (IllegalArgumentException e) {
              LOG.log(System.Logger.Level.WARNING, "bad line in " + f + " ignored: " + e.getMessage());
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the NFSv4 client record " + f, e);
      }
    }
    return new ClientStore(f, null, owners);
  }

  /**
   * Loads every record from a cluster's store (at the start of serving: after a restart or on taking the serving lease
   * over); from then on the records are written there.
   *
   * @param records the store (one record per owner, as this class describes)
   * @throws ClusterStoreException when the store cannot be read (serving must not start without knowing who may
   *     reclaim)
   */
  public static ClientStore inStore(ClientRecordStore records) {
    Set<ByteBuffer> owners = new LinkedHashSet<>();
    for (Map.Entry<String, byte[]> e : records.loadAll().entrySet()) {
      if (owners.size() >= MAX_OWNERS) {
        LOG.log(System.Logger.Level.WARNING, "more than " + MAX_OWNERS + " NFSv4 client records in the cluster store: "
            + "the rest may not reclaim");
        break;
      }
      byte[] owner = e.getValue();
      if (owner.length == 0 || !HexFormat.of().formatHex(owner).equals(e.getKey())) {
        LOG.log(System.Logger.Level.WARNING, "NFSv4 client record " + e.getKey() + " in the cluster store ignored: "
            + "its value is not its owner");
        continue;
      }
      owners.add(ByteBuffer.wrap(owner));
    }
    return new ClientStore(null, records, owners);
  }

  /**
   * CREATE_SESSION is about to confirm a client record (RFC 8881 §18.36.4): in a cluster its owner is written to the
   * store first (if not already there); without a cluster store nothing happens here ({@link #recordState} writes the
   * file). Called under the client table's monitor: one store round trip (at most {@code ossgw.cluster.timeout}) per
   * client that is confirmed, not per request; the store holds about twice the owner's bytes (at most 1,024) per
   * client, so the table's cap of 10,000 clients bounds it to about 20 MB.
   *
   * @throws Nfs4Exception NFS4ERR_DELAY when the store is unreachable (the client retries; its record stays
   *     unconfirmed); a store that refuses the write (full, an error) is logged and the client confirmed unrecorded
   */
  public synchronized void confirmed(ClientRecord client) {
    if (records == null) {
      return;
    }
    ByteBuffer k = ByteBuffer.wrap(client.owner.clone());
    if (!current.containsKey(k) && !keptFromBefore.contains(k)) {
      try {
        records.put(HexFormat.of().formatHex(client.owner), client.owner.clone());
      } catch (ClusterStoreException e) {
        if (e.kind() == ClusterStoreException.Kind.UNREACHABLE) {
          throw new Nfs4Exception(Nfs4.NFS4ERR_DELAY, "cannot write the client record to the cluster store: "
              + e.getMessage());
        }
        // full, refused: that does not pass by waiting, and a client that cannot confirm cannot mount at all; it
        // is served, and only loses its reclaims after a failover (as a lost record file costs after a restart)
        LOG.log(System.Logger.Level.WARNING, client + ": not recorded in the cluster store (" + e.getMessage()
            + "); its opens and locks will not be reclaimable after a failover");
      }
    }
    current.put(k, client.clientid);
  }

  /** The owners that held state before this start (who may reclaim); empty without a state directory. */
  public Set<ByteBuffer> loaded() {
    return loaded;
  }

  /** A client record got its first state: its owner is written down (if not already). */
  public synchronized void recordState(ClientRecord client) {
    if (records != null) {
      return; // written at confirmation (confirmed)
    }
    ByteBuffer k = ByteBuffer.wrap(client.owner.clone());
    Long before = current.put(k, client.clientid);
    if (before == null && !keptFromBefore.contains(k)) {
      save();
    }
  }

  /**
   * A client record was dropped: its owner is removed unless another record of the same owner holds state now or it
   * is an owner from before the restart still in its grace period.
   */
  public synchronized void forget(ClientRecord client) {
    ByteBuffer k = ByteBuffer.wrap(client.owner.clone());
    if (current.remove(k, client.clientid) && !keptFromBefore.contains(k)) {
      if (records != null) {
        removeRecord(k);
      } else {
        save();
      }
    }
  }

  /** The grace period is over: owners from before the restart that hold no state now lose their place. */
  public synchronized void graceOver() {
    boolean changed = !current.keySet().containsAll(keptFromBefore);
    if (records != null) {
      for (ByteBuffer k : keptFromBefore) {
        if (!current.containsKey(k)) {
          removeRecord(k);
        }
      }
      keptFromBefore.clear();
      return;
    }
    keptFromBefore.clear();
    if (changed) {
      save();
    }
  }

  /** The owners written now (tests, diagnostics). */
  public synchronized Set<ByteBuffer> recorded() {
    Set<ByteBuffer> all = new HashSet<>(keptFromBefore);
    all.addAll(current.keySet());
    return all;
  }

  private void removeRecord(ByteBuffer owner) {
    byte[] b = new byte[owner.remaining()];
    owner.duplicate().get(b);
    try {
      records.remove(HexFormat.of().formatHex(b));
    } catch (ClusterStoreException e) {
      // a record left behind only gives a client that has no state a reclaim it will not use, and one more grace
      LOG.log(System.Logger.Level.WARNING, "cannot remove an NFSv4 client record from the cluster store: "
          + e.getMessage());
    }
  }

  private void save() {
    if (file == null) {
      return;
    }
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (ByteBuffer o : recorded()) {
      byte[] b = new byte[o.remaining()];
      o.duplicate().get(b);
      sb.append(HexFormat.of().formatHex(b)).append('\n');
    }
    try {
      io.ossgw.core.util.AtomicFiles.replace(file, sb.toString()); // on disk before the client is told it holds state
    } catch (IOException e) {
      // a lost record only costs a client its reclaim after a restart: serve on, say so
      LOG.log(System.Logger.Level.WARNING, "cannot write the NFSv4 client record " + file + ": " + e);
    }
  }
}
