package io.ossgw.app.cluster;

import io.ossgw.core.cluster.ClusterStoreException;
import io.ossgw.core.cluster.InodeNumberStore;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The shared inode table in Valkey/Redis (issue 23 item 1), under {@code io.ossgw.core.inode.InodeTable#shared}. One
 * table per {@code table} name ({@code nfs} for the NFS server's, {@code engine-<mount id>} for an engine's), and in it
 * per name space {@code S}:
 *
 * <ul>
 *   <li>hash {@code ossgw:NAME:inodes:TABLE:S:f}: number &rarr; {@code generation:path} ({@code generation:} for a
 *       tombstone), the encoding of the state directory's file;
 *   <li>hash {@code ...:S:p}: path &rarr; number;
 *   <li>sorted set {@code ...:S:z}: the paths (score 0, ordered by bytes), so a directory rename finds everything
 *       below it with ZRANGEBYLEX;
 *   <li>string {@code ossgw:NAME:inodes:TABLE:secret}: the NFS handle MAC secret (hex), set once (SET NX).
 * </ul>
 *
 * Every change is one Lua script (atomic: another gateway sees all of it or none); numbers travel as decimal strings
 * (Lua's numbers are doubles: a 64-bit number would lose bits). On a full store (maxmemory) the script is refused
 * before it runs ({@link ClusterStoreException.Kind#FULL}): nothing half-written. Requests per operation: a known
 * path's number is one script call, a new path's one, a listed entry's number with whether it was ever given out
 * (NFS's named handles) one, a named handle's target one, a remove one, a rename one.
 */
public final class RedisInodeNumberStore implements InodeNumberStore {
  /** The live entry of a path: KEYS f, p; ARGV path. Returns {number, generation} or nil. */
  static final String KNOWN = """
      local n = redis.call('HGET', KEYS[2], ARGV[1])
      if not n then return false end
      local v = redis.call('HGET', KEYS[1], n)
      if not v then return false end
      local i = string.find(v, ':', 1, true)
      if string.sub(v, i + 1) ~= ARGV[1] then return false end
      return {n, string.sub(v, 1, i - 1)}
      """;
  /**
   * A named handle's target: KEYS f, p; ARGV number, parent, name, parent is the root (0/1). The number's encoded
   * entry if it has one, else {@code 1:parent-path/name} when the parent is live and no live number holds that path,
   * else nil (the memory store's resolveNamed).
   */
  static final String RESOLVE_NAMED = """
      local v = redis.call('HGET', KEYS[1], ARGV[1])
      if v then return v end
      local pp = '/'
      if ARGV[4] ~= '1' then
        local w = redis.call('HGET', KEYS[1], ARGV[2])
        if not w then return false end
        pp = string.sub(w, string.find(w, ':', 1, true) + 1)
        if pp == '' then return false end
      end
      local path = pp .. '/' .. ARGV[3]
      if pp == '/' then path = '/' .. ARGV[3] end
      local n = redis.call('HGET', KEYS[2], path)
      if n then
        local h = redis.call('HGET', KEYS[1], n)
        if h and string.sub(h, string.find(h, ':', 1, true) + 1) == path then return false end
      end
      return '1:' .. path
      """;
  /**
   * KEYS f, p, z; ARGV path, record (0/1), candidates... The path's live entry, else the first candidate without a
   * live path (recorded at the tombstone's generation + 1; answered unrecorded with generation 0 when record is 0 and
   * it is the first candidate, then with a third element: 1 if the number has no entry at all, 0 for a tombstone's),
   * else nil.
   */
  static final String ALLOCATE = """
      local path = ARGV[1]
      local n = redis.call('HGET', KEYS[2], path)
      if n then
        local v = redis.call('HGET', KEYS[1], n)
        if v then
          local i = string.find(v, ':', 1, true)
          if string.sub(v, i + 1) == path then return {n, string.sub(v, 1, i - 1)} end
        end
      end
      for j = 3, #ARGV do
        local c = ARGV[j]
        local v = redis.call('HGET', KEYS[1], c)
        local gen = 0
        local live = false
        if v then
          local i = string.find(v, ':', 1, true)
          gen = tonumber(string.sub(v, 1, i - 1))
          live = i < string.len(v)
        end
        if not live then
          if ARGV[2] == '0' and j == 3 then
            if v then return {c, '0', '0'} end
            return {c, '0', '1'}
          end
          gen = gen + 1
          redis.call('HSET', KEYS[1], c, string.format('%d', gen) .. ':' .. path)
          redis.call('HSET', KEYS[2], path, c)
          redis.call('ZADD', KEYS[3], 0, path)
          return {c, string.format('%d', gen)}
        end
      end
      return false
      """;
  /** KEYS f, p, z; ARGV path. The path's number becomes a tombstone (the file table's removed). */
  static final String REMOVE = """
      local function tomb(n)
        local v = redis.call('HGET', KEYS[1], n)
        if v then redis.call('HSET', KEYS[1], n, string.sub(v, 1, string.find(v, ':', 1, true))) end
      end
      local function remove(path)
        local n = redis.call('HGET', KEYS[2], path)
        if not n then return end
        redis.call('HDEL', KEYS[2], path)
        redis.call('ZREM', KEYS[3], path)
        tomb(n)
      end
      """;
  static final String REMOVED = REMOVE + "remove(ARGV[1])\nreturn 1\n";
  /**
   * KEYS f, p, z; ARGV from, to. The file table's renamed: from and every path below from/ move under to (keeping
   * number and generation), to's former number (and any a moved path displaces) becomes a tombstone.
   */
  static final String RENAMED = REMOVE + """
      local from, to = ARGV[1], ARGV[2]
      local moving = {}
      local self = redis.call('HGET', KEYS[2], from)
      if self then moving[#moving + 1] = {from, self} end
      for _, k in ipairs(redis.call('ZRANGEBYLEX', KEYS[3], '[' .. from .. '/', '(' .. from .. '0')) do
        moving[#moving + 1] = {k, redis.call('HGET', KEYS[2], k)}
      end
      remove(to)
      for _, m in ipairs(moving) do
        local np = to .. string.sub(m[1], string.len(from) + 1)
        redis.call('HDEL', KEYS[2], m[1])
        redis.call('ZREM', KEYS[3], m[1])
        local displaced = redis.call('HGET', KEYS[2], np)
        redis.call('HSET', KEYS[2], np, m[2])
        redis.call('ZADD', KEYS[3], 0, np)
        if displaced and displaced ~= m[2] then tomb(displaced) end
        local v = redis.call('HGET', KEYS[1], m[2])
        local gen = '1'
        if v then gen = string.sub(v, 1, string.find(v, ':', 1, true) - 1) end
        redis.call('HSET', KEYS[1], m[2], gen .. ':' .. np)
      end
      return #moving
      """;
  /** KEYS secret; ARGV proposed hex. The secret, set once. */
  static final String SECRET = """
      redis.call('SET', KEYS[1], ARGV[1], 'NX')
      return redis.call('GET', KEYS[1])
      """;

  private final RedisStore store;
  private final String table;

  /**
   * @param store the cluster store's connection
   * @param table the table's name: {@code nfs}, or {@code engine-<mount id>}
   */
  public RedisInodeNumberStore(RedisStore store, String table) {
    this.store = store;
    this.table = table;
  }

  List<String> keys(int space) {
    String base = store.settings().key("inodes:" + table + ":" + space + ":");
    return List.of(base + "f", base + "p", base + "z");
  }

  String secretKey() {
    return store.settings().key("inodes:" + table + ":secret");
  }

  @Override
  public byte[] secret(byte[] proposed) {
    Response r = store.eval("inode_secret", SECRET, List.of(secretKey()), List.of(HexFormat.of().formatHex(proposed)));
    return HexFormat.of().parseHex(r.toString());
  }

  @Override
  public long[] known(int space, String path) {
    return pair(store.eval("inode_known", KNOWN, keys(space).subList(0, 2), List.of(path)));
  }

  @Override
  public Entry resolve(int space, long number) {
    return entry(store.call("inode_resolve", Request.cmd(Command.HGET).arg(keys(space).get(0))
        .arg(Long.toString(number)), store.settings().timeout()));
  }

  @Override
  public Entry resolveNamed(int space, long number, long parent, boolean parentIsRoot, String name) {
    return entry(store.eval("inode_resolve_named", RESOLVE_NAMED, keys(space).subList(0, 2),
        List.of(Long.toString(number), Long.toString(parent), name, parentIsRoot ? "1" : "0")));
  }

  /** An encoded entry ({@code generation:path}, {@code generation:} for a tombstone), or null for nil. */
  private static Entry entry(Response r) {
    if (r == null) {
      return null;
    }
    String v = r.toString();
    int i = v.indexOf(':');
    String p = v.substring(i + 1);
    return new Entry(Integer.parseInt(v.substring(0, i)), p.isEmpty() ? null : p);
  }

  @Override
  public long[] allocate(int space, String path, long[] candidates, boolean record) {
    List<String> args = new ArrayList<>(candidates.length + 2);
    args.add(path);
    args.add(record ? "1" : "0");
    for (long c : candidates) {
      args.add(Long.toString(c));
    }
    return pair(store.eval("inode_allocate", ALLOCATE, keys(space), args));
  }

  @Override
  public void removed(int space, String path) {
    store.eval("inode_remove", REMOVED, keys(space), List.of(path));
  }

  @Override
  public void renamed(int space, String from, String to) {
    store.eval("inode_rename", RENAMED, keys(space), List.of(from, to));
  }

  /** {@code {number, generation}} of a script's answer, and its third element when it has one; null for nil. */
  private static long[] pair(Response r) {
    if (r == null || r.size() < 2) {
      return null;
    }
    long n = Long.parseLong(r.get(0).toString());
    long gen = Long.parseLong(r.get(1).toString());
    return r.size() > 2 ? new long[] {n, gen, Long.parseLong(r.get(2).toString())} : new long[] {n, gen};
  }
}
