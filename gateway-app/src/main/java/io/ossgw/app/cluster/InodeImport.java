package io.ossgw.app.cluster;

import io.ossgw.core.inode.InodeTable;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code ossgw cluster import-inodes}: copies a state directory's inode tables into the cluster store (issue 23 item
 * 1), so handles and {@code st_ino} given out by the single gateway stay valid on every gateway of the cluster. The
 * tables: {@code nfs/nfs-handles.mv} (NFS handles, store table {@code nfs}) and every {@code inodes-<mount id>.mv}
 * (an engine's numbers, store table {@code engine-<mount id>}); numbers, generations, tombstones and the handle secret
 * are copied as they are.
 *
 * <p>Refuses, writing nothing, when the store already holds a table of that name with another secret (another
 * history: merging two would give one number to two objects). Importing the same state directory again before the
 * cluster starts is harmless (the same values are written; after, it would write old paths back over renames). Run
 * it with no gateway on the state directory (its files are locked) and before the gateways on the store start.
 */
public final class InodeImport {
  /** Entries written per HSET/ZADD request. */
  private static final int BATCH = 1000;

  private final RedisStore store;

  public InodeImport(RedisStore store) {
    this.store = store;
  }

  /** What one table brought: its store name and entry counts. */
  public record Result(String table, long entries, long tombstones) {}

  /**
   * The state directory's inode tables by store table name.
   *
   * @throws IOException if the directory cannot be listed
   */
  public static Map<String, Path> tables(Path stateDir) throws IOException {
    Map<String, Path> out = new LinkedHashMap<>();
    Path nfs = stateDir.resolve("nfs").resolve("nfs-handles.mv");
    if (Files.isRegularFile(nfs)) {
      out.put("nfs", nfs);
    }
    try (Stream<Path> files = Files.list(stateDir)) {
      files.filter(f -> f.getFileName().toString().matches("inodes-[0-9a-f]+\\.mv")).sorted().forEach(f -> {
        String name = f.getFileName().toString();
        out.put("engine-" + name.substring("inodes-".length(), name.length() - 3), f);
      });
    }
    return out;
  }

  /**
   * Copies every table of {@code stateDir}.
   *
   * @return one result per table, in order
   * @throws IllegalStateException (writing nothing) when the directory has no table, a file cannot be opened (a
   *     gateway holds it), or the store holds a table of the same name with another secret
   * @throws io.ossgw.core.cluster.ClusterStoreException when the store fails (re-run the command: it is idempotent)
   */
  public List<Result> importAll(Path stateDir) throws IOException {
    Map<String, Path> tables = tables(stateDir);
    if (tables.isEmpty()) {
      throw new IllegalStateException("no inode table in " + stateDir + " (looked for nfs/nfs-handles.mv and "
          + "inodes-<mount id>.mv)");
    }
    Map<String, InodeTable> open = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, Path> t : tables.entrySet()) {
        open.put(t.getKey(), InodeTable.open(t.getValue(), 16));
      }
      for (Map.Entry<String, InodeTable> t : open.entrySet()) { // every check before any write
        Response had = store.call("inode_import", Request.cmd(Command.GET)
            .arg(new RedisInodeNumberStore(store, t.getKey()).secretKey()), store.settings().timeout());
        if (had != null && !had.toString().equals(HexFormat.of().formatHex(t.getValue().secret()))) {
          throw new IllegalStateException("the store " + store.settings().displayUrl() + " (cluster '"
              + store.settings().name() + "') already has another inode table '" + t.getKey() + "' (another "
              + "secret): not importing " + tables.get(t.getKey()) + "; nothing was written");
        }
      }
      List<Result> results = new ArrayList<>();
      for (Map.Entry<String, InodeTable> t : open.entrySet()) {
        results.add(copy(t.getKey(), t.getValue()));
      }
      return results;
    } finally {
      open.values().forEach(InodeTable::close);
    }
  }

  private Result copy(String name, InodeTable table) {
    RedisInodeNumberStore target = new RedisInodeNumberStore(store, name);
    long[] counts = new long[2];
    Map<Integer, Batch> batches = new LinkedHashMap<>();
    table.forEach((space, fileid, entry) -> {
      Batch b = batches.computeIfAbsent(space, s -> new Batch(target.keys(s)));
      b.add(fileid, entry);
      counts[entry.path() == null ? 1 : 0]++;
      if (b.size >= BATCH) {
        b.flush();
      }
    });
    batches.values().forEach(Batch::flush);
    // the secret last: a gateway started meanwhile makes its own, and a re-run then refuses rather than mixes
    target.secret(table.secret());
    return new Result(name, counts[0], counts[1]);
  }

  /** HSET/ZADD requests of one name space being filled. */
  private final class Batch {
    final List<String> keys;
    Request byNumber;
    Request byPath;
    Request paths;
    int size;

    Batch(List<String> keys) {
      this.keys = keys;
      reset();
    }

    private void reset() {
      byNumber = Request.cmd(Command.HSET).arg(keys.get(0));
      byPath = Request.cmd(Command.HSET).arg(keys.get(1));
      paths = Request.cmd(Command.ZADD).arg(keys.get(2));
      size = 0;
    }

    void add(long fileid, InodeTable.Entry e) {
      byNumber.arg(Long.toString(fileid)).arg(e.generation() + ":" + (e.path() == null ? "" : e.path()));
      if (e.path() != null) {
        byPath.arg(e.path()).arg(Long.toString(fileid));
        paths.arg(0).arg(e.path());
        lives++;
      }
      size++;
    }

    int lives;

    void flush() {
      if (size == 0) {
        return;
      }
      store.call("inode_import", byNumber, store.settings().timeout());
      if (lives > 0) {
        store.call("inode_import", byPath, store.settings().timeout());
        store.call("inode_import", paths, store.settings().timeout());
      }
      lives = 0;
      reset();
    }
  }
}
