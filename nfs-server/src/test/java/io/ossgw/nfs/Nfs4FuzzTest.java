package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.ossgw.core.config.Credentials;
import io.ossgw.core.config.EngineConfig;
import io.ossgw.core.config.MountOptions;
import io.ossgw.core.engine.Engine;
import io.ossgw.emulator.OssEmulator;
import io.ossgw.nfs.export.Export;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.nfs.xdr.Xdrs;
import io.ossgw.testsupport.Slowdown;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * XDR fuzz of NFSv4.1 COMPOUND4args (issue 11 "Tests") against a real {@link NfsServer} with {@code nfsV41(true)} over
 * TCP, an engine and the OSS emulator, as {@link RobustnessTest} does for v3: random operations with mostly plausible
 * arguments inside a live session, then damaged (bytes flipped, words set to huge or negative counts and lengths,
 * truncated, random bytes appended), damaged COMPOUND headers (tag length, minor version, operation count), damaged
 * session-less operations and random bodies, from three clients at once. Every call in a well-formed RPC record must
 * get an RPC reply with its xid: a COMPOUND4res (never NFS4ERR_SERVERFAULT, which means an operation threw on input it
 * should have refused) or GARBAGE_ARGS. The server's selector threads stay alive, no thread dies of an uncaught
 * exception, the heap after the fuzz and the bytes allocated per hostile call stay bounded, and a new session works
 * afterwards.
 */
class Nfs4FuzzTest {
  static final String BUCKET = "fuzz-v4";
  static final int GARBAGE_ARGS = 4;

  @TempDir
  static Path state;
  static OssEmulator emu;
  static Engine engine;
  static NfsServer server;
  static byte[] rootHandle;

  @BeforeAll
  static void start() {
    emu = OssEmulator.builder().bind("127.0.0.1").port(0).bucket(BUCKET).credentials("ak", "sk").authEnabled(true)
        .build().start();
    engine = Engine.start(EngineConfig.fromOptions(BUCKET, "", MountOptions.parse(List.of("url=" + emu.endpoint(),
        "retries=2")), new Credentials("ak", "sk"), 1000, 1000, state.resolve("engine")));
    server = NfsServer.builder().bind("127.0.0.1").port(0).stateDir(state.resolve("nfs")).nfsV41(true)
        .export(Export.builder("/" + BUCKET, engine.fileSystem()).squash(io.ossgw.nfs.export.Squash.NO_ROOT_SQUASH).build())
        .build().start();
    try (NfsClient c = new NfsClient(server.port(), 0, 0)) {
      rootHandle = c.root("/" + BUCKET).data();
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.stop();
    }
    if (engine != null) {
      engine.close();
    }
    if (emu != null) {
      emu.close();
    }
  }

  /** A client of one session over one raw connection; its calls check every reply. */
  static final class Client implements AutoCloseable {
    final RawRpc rpc;
    final int uid;
    final Map<String, Integer> outcomes = new TreeMap<>();
    int xid = 1;
    sessionid4 sid;
    long clientid;
    final int[] slotSeq = new int[4];
    /** Session compounds answered with a COMPOUND4res, and those whose SEQUENCE succeeded. */
    int sessionAnswered;
    int sequenced;

    Client(int uid) {
      this.uid = uid;
      this.rpc = new RpcConn().open();
    }

    /** Sends a COMPOUND body; returns the reply body, or null for GARBAGE_ARGS. Asserts the RPC-level rules. */
    byte[] call(byte[] body) throws Exception {
      int x = xid++;
      rpc.send(RawRpc.call(x, Nfs4.PROGRAM, Nfs4.VERSION, Nfs4.NFSPROC4_COMPOUND, uid, uid, body));
      RawRpc.Reply r = rpc.read();
      assertThat(r.xid()).as("xid of the reply").isEqualTo(x);
      assertThat(r.accepted()).as("accepted").isTrue();
      assertThat(r.stat()).as("accept_stat (SUCCESS or GARBAGE_ARGS)").isIn(0, GARBAGE_ARGS);
      if (r.stat() == GARBAGE_ARGS) {
        outcomes.merge("GARBAGE_ARGS", 1, Integer::sum);
        return null;
      }
      ByteBuffer b = ByteBuffer.wrap(r.body());
      int status = b.getInt();
      assertThat(status).as("COMPOUND status of %s", hex(body)).isNotEqualTo(Nfs4.NFS4ERR_SERVERFAULT);
      outcomes.merge(Integer.toString(status), 1, Integer::sum);
      return r.body();
    }

    void session(String name) throws Exception {
      byte[] ex = call(Xdrs.toBytes(new COMPOUND4args(new byte[0], 1, List.of(new nfs_argop4(Nfs4.OP_EXCHANGE_ID,
          new EXCHANGE_ID4args(new client_owner4(new byte[8], name.getBytes()), 0, state_protect4_a.NONE, null))))));
      EXCHANGE_ID4resok e = (EXCHANGE_ID4resok) Xdrs.fromBytes(ex, COMPOUND4res::decode).resarray().getFirst().resok();
      channel_attrs4 fore = new channel_attrs4(0, 1 << 20, 1 << 20, 64 << 10, 16, slotSeq.length, null);
      byte[] cs = call(Xdrs.toBytes(new COMPOUND4args(new byte[0], 1, List.of(new nfs_argop4(Nfs4.OP_CREATE_SESSION,
          new CREATE_SESSION4args(e.clientid(), e.sequenceid(), 0, fore,
              new channel_attrs4(0, 4096, 4096, 0, 2, 1, null), 0x40000000, 1))))));
      sid = ((CREATE_SESSION4resok) Xdrs.fromBytes(cs, COMPOUND4res::decode).resarray().getFirst().resok())
          .sessionid();
      clientid = e.clientid();
      java.util.Arrays.fill(slotSeq, 1);
    }

    /** The start of a session COMPOUND: header with {@code numops}, then SEQUENCE on {@code slot}. */
    V4FuzzOps.Enc start(String tag, int numops, int slot) {
      V4FuzzOps.Enc e = new V4FuzzOps.Enc().string(tag).int32(1).int32(numops);
      e.int32(Nfs4.OP_SEQUENCE).int64(sid.hi()).int64(sid.lo()).int32(slotSeq[slot]).int32(slot)
          .int32(slotSeq.length - 1).int32(0);
      return e;
    }

    /** After a session COMPOUND: the slot's next sequence id if SEQUENCE ran and succeeded. */
    void advance(byte[] reply, int slot) {
      if (reply == null) {
        return;
      }
      sessionAnswered++;
      ByteBuffer b = ByteBuffer.wrap(reply);
      b.getInt();
      int taglen = b.getInt();
      b.position(b.position() + ((taglen + 3) & ~3));
      if (b.getInt() > 0 && b.getInt() == Nfs4.OP_SEQUENCE && b.getInt() == Nfs4.NFS4_OK) {
        slotSeq[slot]++;
        sequenced++;
      }
    }

    @Override
    public void close() {
      rpc.close();
    }
  }

  /** Opens a raw connection with a timeout long enough for a slow emulator but short of a hang. */
  static final class RpcConn {
    RawRpc open() {
      RawRpc r = new RawRpc(server.port());
      try {
        r.socket.setSoTimeout((int) Slowdown.scaledMillis(20_000));
      } catch (java.net.SocketException e) {
        throw new IllegalStateException(e);
      }
      return r;
    }
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < Math.min(b.length, 256); i++) {
      s.append(String.format("%02x", b[i]));
      if (i % 4 == 3) {
        s.append(' ');
      }
    }
    return s.append(b.length > 256 ? "... (" + b.length + " bytes)" : "").toString();
  }

  /** Words a fuzzed length or count field is set to. */
  static final int[] HOSTILE = {0, 1, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffc, 1 << 16, 1 << 20, 1 << 24};

  /** One fuzzing client: {@code rounds} compounds of all kinds. */
  static Map<String, Integer> fuzz(int id, int rounds) throws Exception {
    Random rnd = new Random(1000 + id);
    try (Client c = new Client(id == 0 ? 0 : 1000)) {
      c.session("fuzz-" + id);
      V4FuzzOps ops = new V4FuzzOps(rnd, rootHandle, c.clientid);
      for (int i = 0; i < rounds; i++) {
        int slot = rnd.nextInt(c.slotSeq.length);
        int kind = i % 20;
        if (kind == 0) { // a well-formed OPEN whose stateid later operations use
          V4FuzzOps.Enc e = c.start("open", 3, slot);
          ops.putRoot(e);
          ops.openCreate(e, "f" + rnd.nextInt(3));
          byte[] reply = c.call(e.bytes());
          c.advance(reply, slot);
          keepOpenStateid(reply, ops);
        } else if (kind == 1) { // random bytes as the COMPOUND
          c.call(ops.random(rnd.nextInt(200)));
        } else if (kind == 2) { // a damaged header: tag length, minor version or operation count
          V4FuzzOps.Enc e = new V4FuzzOps.Enc();
          int which = rnd.nextInt(3);
          e.int32(which == 0 ? HOSTILE[rnd.nextInt(HOSTILE.length)] : 0);
          e.int32(which == 1 ? rnd.nextInt(4) - 1 : 1);
          e.int32(which == 2 ? HOSTILE[rnd.nextInt(HOSTILE.length)] : 1);
          ops.op(e);
          c.call(e.bytes());
        } else if (kind == 3) { // a session-less operation, damaged
          c.call(sessionless(rnd, ops, c));
        } else {
          int n = 1 + rnd.nextInt(6);
          V4FuzzOps.Enc e = c.start("f" + i, 1 + n, slot);
          int fixed = e.size();
          if (rnd.nextBoolean()) {
            ops.putRoot(e);
            n--;
          }
          for (int k = 0; k < n; k++) {
            ops.op(e);
          }
          byte[] body = damage(rnd, e.bytes(), fixed, ops);
          c.advance(c.call(body), slot);
        }
      }
      c.outcomes.put("session compounds answered", c.sessionAnswered);
      c.outcomes.put("session compounds sequenced", c.sequenced);
      return c.outcomes;
    }
  }

  /** Damages the bytes after {@code from} (the SEQUENCE stays intact so the slot keeps its order) or not at all. */
  static byte[] damage(Random rnd, byte[] body, int from, V4FuzzOps ops) {
    int words = (body.length - from) / 4;
    switch (rnd.nextInt(6)) {
      case 0 -> { // flip bytes
        for (int k = 1 + rnd.nextInt(4); k > 0 && body.length > from; k--) {
          body[from + rnd.nextInt(body.length - from)] ^= (byte) (1 << rnd.nextInt(8));
        }
      }
      case 1, 2 -> { // a length or count set to something hostile
        if (words > 0) {
          ByteBuffer.wrap(body).putInt(from + 4 * rnd.nextInt(words), HOSTILE[rnd.nextInt(HOSTILE.length)]);
        }
      }
      case 3 -> body = java.util.Arrays.copyOf(body, from + rnd.nextInt(body.length - from + 1)); // truncated
      case 4 -> { // random bytes appended (whole words: the RPC layer reads words)
        byte[] more = ops.random(4 * rnd.nextInt(16));
        byte[] b = java.util.Arrays.copyOf(body, body.length + more.length);
        System.arraycopy(more, 0, b, body.length, more.length);
        body = b;
      }
      default -> { } // as generated
    }
    return body;
  }

  static byte[] sessionless(Random rnd, V4FuzzOps ops, Client c) {
    V4FuzzOps.Enc e = new V4FuzzOps.Enc().int32(0).int32(1).int32(1);
    switch (rnd.nextInt(5)) {
      case 0 -> e.int32(Nfs4.OP_EXCHANGE_ID).fixed(ops.random(8)).opaque(("o" + rnd.nextInt(20)).getBytes())
          .int32(rnd.nextInt()).int32(rnd.nextInt(4)).int32(rnd.nextInt(3)).fixed(ops.random(4 * rnd.nextInt(8)));
      case 1 -> e.int32(Nfs4.OP_CREATE_SESSION).int64(rnd.nextBoolean() ? c.clientid : rnd.nextLong())
          .int32(rnd.nextInt(3)).int32(rnd.nextInt(4)).fixed(ops.random(4 * rnd.nextInt(20)));
      case 2 -> e.int32(Nfs4.OP_DESTROY_SESSION).fixed(ops.random(16));
      case 3 -> e.int32(Nfs4.OP_BIND_CONN_TO_SESSION).int64(c.sid.hi()).int64(c.sid.lo()).int32(rnd.nextInt(5))
          .int32(rnd.nextInt(3));
      default -> e.int32(Nfs4.OP_DESTROY_CLIENTID).int64(rnd.nextLong());
    }
    byte[] b = e.bytes();
    if (rnd.nextBoolean()) {
      ByteBuffer.wrap(b).putInt(4 * (3 + rnd.nextInt(b.length / 4 - 3)), HOSTILE[rnd.nextInt(HOSTILE.length)]);
    }
    return b;
  }

  /** Reply of SEQUENCE, PUTFH, OPEN: keeps OPEN's stateid when all three succeeded. */
  static void keepOpenStateid(byte[] reply, V4FuzzOps ops) {
    if (reply == null) {
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(reply);
    if (b.getInt() != Nfs4.NFS4_OK) {
      return;
    }
    b.position(b.position() + ((b.getInt() + 3) & ~3));
    b.getInt(); // 3 results
    b.position(b.position() + 8 + 36 + 8 + 8); // SEQUENCE op, status, resok; PUTFH op, status; OPEN op, status
    byte[] sid = new byte[16];
    b.get(sid);
    ops.stateids.add(sid);
  }

  static Set<Thread> selectorThreads() {
    return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("nfs-selector"))
        .collect(Collectors.toSet());
  }

  static long usedHeapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  @Test
  void fuzzedCompoundsGetRepliesAndTheServerKeepsServing() throws Exception {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    Set<Thread> selectors = selectorThreads();
    assertThat(selectors).isNotEmpty();
    long heapBefore = usedHeapAfterGc();
    Map<String, Integer> outcomes = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<Map<String, Integer>>> runs = List.of(pool.submit(() -> fuzz(0, 1500)),
          pool.submit(() -> fuzz(1, 1500)), pool.submit(() -> fuzz(2, 1500)));
      for (Future<Map<String, Integer>> f : runs) {
        f.get().forEach((k, v) -> outcomes.merge(k, v, Integer::sum));
      }
    } finally {
      pool.shutdownNow();
      Thread.setDefaultUncaughtExceptionHandler(before);
    }
    System.out.println("NFSv4.1 fuzz outcomes (status -> calls): " + new TreeMap<>(outcomes));
    assertThat(uncaught).as("uncaught exceptions").isEmpty();
    assertThat(selectors).allMatch(Thread::isAlive);
    assertThat(outcomes.getOrDefault("GARBAGE_ARGS", 0)).as("calls answered GARBAGE_ARGS").isGreaterThan(50);
    // the session part is never damaged: every session compound answered passed its SEQUENCE and reached its
    // operations, whatever followed
    assertThat(outcomes.get("session compounds answered")).isGreaterThan(3000);
    assertThat(outcomes.get("session compounds sequenced")).isEqualTo(outcomes.get("session compounds answered"));
    assertThat(outcomes.getOrDefault("0", 0)).as("calls answered NFS4_OK").isGreaterThan(100);
    assertThat(outcomes.getOrDefault(Integer.toString(Nfs4.NFS4ERR_BADXDR), 0)).as("NFS4ERR_BADXDR").isGreaterThan(50);
    assertThat(usedHeapAfterGc() - heapBefore).as("heap grown by the fuzz").isLessThan(64L << 20);
    assertThat(server.v4Clients().clients()).isLessThanOrEqualTo(server.v4Clients().limits().maxClients());
    aNewSessionWorks();
  }

  /**
   * Compounds whose counts and lengths claim gigabytes: each is answered and none makes the server allocate what its
   * header claims (bytes allocated per call, over all threads, stay far below the claims).
   */
  @Test
  void hugeCountsAndLengthsAreRefusedWithoutAllocatingThem() throws Exception {
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    assertThat(mx.isThreadAllocatedMemorySupported()).isTrue();
    mx.setThreadAllocatedMemoryEnabled(true);
    try (Client c = new Client(0)) {
      c.session("huge");
      V4FuzzOps ops = new V4FuzzOps(new Random(5), rootHandle, c.clientid);
      int calls = 0;
      long allocated = mx.getTotalThreadAllocatedBytes();
      for (int claim : new int[] {0x7fffffff, 0x80000000, 0xffffffff, 0x7ffffffc, 1 << 30}) {
        // the operation count, the tag length
        c.call(new V4FuzzOps.Enc().int32(0).int32(1).int32(claim).int32(Nfs4.OP_PUTROOTFH).bytes());
        c.call(new V4FuzzOps.Enc().int32(claim).int32(1).int32(1).bytes());
        // a file handle, a name, WRITE data, a bitmap, attr_vals, TEST_STATEID's array, an owner
        for (int op : new int[] {Nfs4.OP_PUTFH, Nfs4.OP_LOOKUP, Nfs4.OP_WRITE, Nfs4.OP_GETATTR, Nfs4.OP_SETATTR,
            Nfs4.OP_TEST_STATEID, Nfs4.OP_LOCKT, Nfs4.OP_CREATE}) {
          V4FuzzOps.Enc e = c.start("huge", 2, 0).int32(op);
          switch (op) {
            case Nfs4.OP_WRITE -> e.fixed(V4FuzzOps.ANONYMOUS).int64(0).int32(0).int32(claim);
            case Nfs4.OP_SETATTR -> e.fixed(V4FuzzOps.ANONYMOUS).int32(1).int32(1 << 4).int32(claim);
            case Nfs4.OP_LOCKT -> e.int32(1).int64(0).int64(1).int64(c.clientid).int32(claim);
            case Nfs4.OP_CREATE -> e.int32(Nfs4.NF4LNK).int32(claim);
            default -> e.int32(claim);
          }
          e.fixed(new byte[64]);
          byte[] reply = c.call(e.bytes());
          c.advance(reply, 0);
          calls += 3;
        }
        calls += 2;
      }
      long perCall = (mx.getTotalThreadAllocatedBytes() - allocated) / calls;
      System.out.println("NFSv4.1 hostile-length calls: " + calls + ", bytes allocated per call (all threads): "
          + perCall);
      assertThat(perCall).as("bytes allocated per hostile call").isLessThan(4L << 20);
      // a record as large as the server takes: a 1 MiB WRITE is read, refused or done, and answered
      V4FuzzOps.Enc e = c.start("big", 3, 1);
      ops.putRoot(e);
      e.int32(Nfs4.OP_WRITE).fixed(V4FuzzOps.ANONYMOUS).int64(0).int32(0).opaque(new byte[1 << 20]);
      c.advance(c.call(e.bytes()), 1);
    }
    aNewSessionWorks();
  }

  /** A new client sets up a session and runs SEQUENCE, PUTROOTFH and GETFH (the first once PUTROOTFH exists). */
  static void aNewSessionWorks() throws Exception {
    try (Client c = new Client(0)) {
      c.session("after-" + System.nanoTime());
      byte[] r = c.call(c.start("after", 1, 0).bytes());
      assertThat(ByteBuffer.wrap(r).getInt()).as("SEQUENCE of a new session").isEqualTo(Nfs4.NFS4_OK);
      c.advance(r, 0);
      V4FuzzOps.Enc e = c.start("after", 3, 0).int32(Nfs4.OP_PUTROOTFH).int32(Nfs4.OP_GETFH);
      int status = ByteBuffer.wrap(c.call(e.bytes())).getInt();
      assertThat(status).as("SEQUENCE, PUTROOTFH, GETFH").isIn(Nfs4.NFS4_OK, Nfs4.NFS4ERR_NOTSUPP);
    }
  }
}
