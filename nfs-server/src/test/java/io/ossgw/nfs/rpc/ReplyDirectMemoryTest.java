package io.ossgw.nfs.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.testsupport.Slowdown;
import java.io.DataInputStream;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.dcache.oncrpc4j.rpc.RpcDispatchable;
import org.dcache.oncrpc4j.xdr.XdrVoid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Replies are written from pooled direct memory, with no direct buffer allocated per call (docs/benchmarks.md "Inside
 * memory_limit"): a real RPC server over a loopback socket answers READ-shaped replies (heap-encoded headers and
 * length, then 128 KiB of data in a {@link ReplyMemory} buffer, as NFS READ3 encodes them) and NULL replies, and the
 * JVM's count of direct buffers (BufferPoolMXBean "direct", which counts a buffer from its allocation until a
 * collection frees it) must not grow with the calls. Before, Grizzly copied each reply that had a heap part into a new direct buffer of the
 * reply's size, cached per thread, and every call runs on a new virtual thread: one allocation per call.
 */
class ReplyDirectMemoryTest {
  static final int PROG = ConnectionRulesTest.PROG;
  static final int NULL = ConnectionRulesTest.NULL;
  /** A READ-shaped reply: the data's length word (encoded on the heap), then 128 KiB from ReplyMemory.forReply. */
  static final int READ = 1;
  static final int DATA = 128 * 1024;

  RpcServer server;

  RpcDispatchable program = call -> {
    call.retrieveCall(XdrVoid.XDR_VOID);
    if (call.getProcedure() == READ) {
      ByteBuffer data = ReplyMemory.forReply(call, DATA);
      for (int i = 0; i < DATA; i++) {
        data.put(i, (byte) (call.getXid() + i));
      }
      call.reply(new ConnectionRulesTest.Buffers(List.of(data)));
    } else {
      call.reply(XdrVoid.XDR_VOID);
    }
  };

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(1000);
    }
  }

  @Test
  void repliesAreWrittenWithoutADirectBufferPerCall() throws Exception {
    RpcServer.Limits limits = new RpcServer.Limits("127.0.0.1", 0, 64 * 1024, 16, 16, 16, 64, 16, 1,
        Duration.ofMinutes(6), Duration.ofSeconds(30), Duration.ofSeconds(10));
    server = new RpcServer(limits, List.of(new RpcProgram(PROG, 1, program)), a -> true, System::nanoTime, false);
    server.start();
    BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
        .filter(p -> p.getName().equals("direct")).findFirst().orElseThrow();
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout((int) Slowdown.scaledMillis(10_000));
      DataInputStream in = new DataInputStream(s.getInputStream());
      int xid = 1;
      for (int i = 0; i < 20; i++) { // the pools' buffers, the client's and the JDK's cached ones are allocated here
        xid = exchange(s, in, xid);
      }
      // a collection frees the per-call buffers of the old way, hiding them: measure again over a stretch without one
      long grew = -1;
      for (int attempt = 0; attempt < 5 && grew < 0; attempt++) {
        long gcs = collections();
        long before = direct.getCount();
        for (int i = 0; i < 100; i++) {
          xid = exchange(s, in, xid);
        }
        if (collections() == gcs) {
          grew = direct.getCount() - before;
        }
      }
      assertThat(grew).as("a stretch of 100 READ and 100 NULL calls without a garbage collection").isNotNegative();
      assertThat(grew).as("direct buffers allocated by 200 calls").isLessThan(10);
    }
    Slowdown.waitUntil(() -> server.inFlight() == 0 && server.pooledInUse() == 0, Duration.ofSeconds(10));
    assertThat(server.pooledInUse()).as("pooled buffers still lent after the replies were read").isZero();
  }

  /** One READ and one NULL call, their replies read and checked; returns the next xid. */
  static int exchange(Socket s, DataInputStream in, int xid) throws IOException {
    ConnectionRulesTest.send(s, ConnectionRulesTest.call(xid, READ));
    ByteBuffer r = record(in);
    assertThat(r.getInt()).isEqualTo(xid);
    assertThat(new int[] {r.getInt(), r.getInt(), r.getInt(), r.getInt(), r.getInt()})
        .as("REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS").containsExactly(1, 0, 0, 0, 0);
    assertThat(r.getInt()).as("the data's length").isEqualTo(DATA);
    for (int i = 0; i < DATA; i++) {
      if (r.get() != (byte) (xid + i)) {
        throw new AssertionError("READ reply " + xid + ": wrong byte at " + i);
      }
    }
    assertThat(r.hasRemaining()).isFalse();
    ConnectionRulesTest.send(s, ConnectionRulesTest.call(xid + 1, NULL));
    r = record(in);
    assertThat(r.getInt()).isEqualTo(xid + 1);
    assertThat(r.remaining()).as("REPLY, accepted, verifier, SUCCESS, no result").isEqualTo(20);
    return xid + 2;
  }

  static ByteBuffer record(DataInputStream in) throws IOException {
    int mark = in.readInt();
    assertThat(mark & 0x80000000).as("last fragment").isNotZero();
    byte[] rec = new byte[mark & 0x7fffffff];
    in.readFully(rec);
    return ByteBuffer.wrap(rec);
  }

  static long collections() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
  }
}
