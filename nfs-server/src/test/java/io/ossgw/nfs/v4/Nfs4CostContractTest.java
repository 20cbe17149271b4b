package io.ossgw.nfs.v4;

import static io.ossgw.nfs.v4.V4Wire.op;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.nfs.CostTable;
import io.ossgw.nfs.v4.xdr.*;
import io.ossgw.testsupport.Slowdown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds SEMANTICS.md's NFSv4.1 request-cost table to the code, as {@code NfsCostContractTest} does for v3: every row
 * between {@code <!-- nfs4-contract:begin -->} and {@code <!-- nfs4-contract:end -->} is run through an NFSv4.1
 * client against the OSS emulator, and the requests it cost must be exactly those the row lists.
 */
class Nfs4CostContractTest {

  @TempDir
  Path state;

  /** Setup (not counted) returns the action (counted). {@code dir} is the handle of a fresh directory "d". */
  interface Scenario {
    Runnable setUp(V4Gateway gw, V4Client c, byte[] dir);
  }

  static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

  static String data(int n) {
    return "x".repeat(n);
  }

  static nfs_argop4 putfh(byte[] fh) {
    return V4Client.putfh(fh);
  }

  /** OPEN (create, UNCHECKED4) of d/name for read and write; returns its stateid. */
  static stateid4 create(V4Client c, byte[] dir, String name) {
    COMPOUND4res r = c.call(putfh(dir), Open4Ops.create("o", name, Nfs4.UNCHECKED4, Open4Ops.BOTH, 0));
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
    return Open4Ops.opened(r, 1).stateid();
  }

  /** A file d/name of {@code n} bytes, written, committed and closed. */
  static void file(V4Client c, byte[] dir, String name, int n) {
    stateid4 s = create(c, dir, name);
    ok(c, putfh(dir), V4Client.lookup(name), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(n)), Open4Ops.commit(),
        Open4Ops.close(s));
  }

  static void ok(V4Client c, nfs_argop4... ops) {
    COMPOUND4res r = c.call(ops);
    assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
  }

  static nfs_argop4 getattr() {
    return V4Client.getattr(Nfs4.FATTR4_TYPE, Nfs4.FATTR4_SIZE, Nfs4.FATTR4_CHANGE, Nfs4.FATTR4_MODE);
  }

  static {
    SCENARIOS.put("nfs4-open-write-close", (gw, c, d) -> () -> {
      stateid4 s = create(c, d, "f");
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(100 << 10)), Open4Ops.close(s));
    });
    SCENARIOS.put("nfs4-open-create-cold", (gw, c, d) -> {
      gw.put("cold/other", "x"); // a directory the gateway has not listed
      byte[] cold = DirOps.fh(c, "/" + V4Gateway.BUCKET + "/cold");
      return () -> {
        stateid4 s = create(c, cold, "f");
        ok(c, putfh(cold), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(100 << 10)),
            Open4Ops.close(s));
      };
    });
    SCENARIOS.put("nfs4-open-write-commit-close", (gw, c, d) -> () -> {
      stateid4 s = create(c, d, "f");
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(100 << 10)), Open4Ops.commit(),
          Open4Ops.close(s));
    });
    SCENARIOS.put("nfs4-open-exclusive-write-close", (gw, c, d) -> () -> {
      COMPOUND4res r = c.call(putfh(d), Open4Ops.exclusive("o", "f", Nfs4.EXCLUSIVE4_1, 42));
      assertThat(r.status()).as(V4Wire.show(r)).isEqualTo(Nfs4.NFS4_OK);
      stateid4 s = Open4Ops.opened(r, 1).stateid();
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(1000)), Open4Ops.close(s));
    });
    SCENARIOS.put("nfs4-write-filesync", (gw, c, d) -> () -> {
      stateid4 s = create(c, d, "f");
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.FILE_SYNC4, data(1000)), Open4Ops.close(s));
    });
    SCENARIOS.put("nfs4-getattr-cached", (gw, c, d) -> {
      file(c, d, "f", 10);
      ok(c, putfh(d), V4Client.lookup("f"), getattr());
      return () -> ok(c, putfh(d), V4Client.lookup("f"), getattr());
    });
    SCENARIOS.put("nfs4-read-100KiB", (gw, c, d) -> {
      file(c, d, "f", 100 << 10);
      awaitNoOpenFiles(gw); // the shared handle released (5 s idle after CLOSE): its bytes are no longer held
      ok(c, putfh(d), V4Client.lookup("f"), getattr());
      return () -> {
        COMPOUND4res r = c.call(putfh(d), Open4Ops.open("r", "f", Open4Ops.READ, 0));
        stateid4 s = Open4Ops.opened(r, 1).stateid();
        ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.read(s, 0, 100 << 10), Open4Ops.close(s));
      };
    });
    SCENARIOS.put("nfs4-mkdir", (gw, c, d) -> () -> ok(c, putfh(d), DirOps.mkdir("sub")));
    SCENARIOS.put("nfs4-remove", (gw, c, d) -> {
      file(c, d, "f", 10);
      return () -> ok(c, putfh(d), DirOps.remove("f"));
    });
    SCENARIOS.put("nfs4-rename-file", (gw, c, d) -> {
      file(c, d, "f", 10);
      return () -> ok(c, putfh(d), V4Client.savefh(), DirOps.rename("f", "g"));
    });
    SCENARIOS.put("nfs4-setattr-mode", (gw, c, d) -> {
      file(c, d, "f", 10);
      ok(c, putfh(d), V4Client.lookup("f"), getattr());
      return () -> ok(c, putfh(d), V4Client.lookup("f"),
          V4Client.setattr(stateid4.ANONYMOUS, Open4Ops.mode(0600)));
    });
    SCENARIOS.put("nfs4-commit-setattr-close", (gw, c, d) -> () -> {
      stateid4 s = create(c, d, "f");
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.write(s, 0, Nfs4.UNSTABLE4, data(100 << 10)), Open4Ops.commit());
      ok(c, putfh(d), V4Client.lookup("f"), V4Client.setattr(stateid4.ANONYMOUS, Open4Ops.mode(0600)));
      ok(c, putfh(d), V4Client.lookup("f"), V4Client.setattr(stateid4.ANONYMOUS,
          V4Client.fattr(bitmap4.of(Nfs4.FATTR4_TIME_MODIFY_SET), w -> w.int32(Nfs4.SET_TO_CLIENT_TIME4)
              .int64(1_600_000_000L).int32(0))));
      ok(c, putfh(d), V4Client.lookup("f"), Open4Ops.close(s));
    });
    SCENARIOS.put("nfs4-lock-locku", (gw, c, d) -> {
      file(c, d, "f", 10);
      COMPOUND4res r = c.call(putfh(d), Open4Ops.open("o", "f", Open4Ops.BOTH, 0));
      stateid4 open = Open4Ops.opened(r, 1).stateid();
      return () -> {
        COMPOUND4res l = c.call(putfh(d), V4Client.lookup("f"), op(Nfs4.OP_LOCK, new LOCK4args(Nfs4.WRITE_LT, false,
            0, -1L, new open_to_lock_owner4(0, open, 0, new lock_owner4(0, new byte[] {7})), null)));
        assertThat(l.status()).as(V4Wire.show(l)).isEqualTo(Nfs4.NFS4_OK);
        stateid4 lock = V4Client.body(l, 2);
        ok(c, putfh(d), V4Client.lookup("f"), op(Nfs4.OP_LOCKU, new LOCKU4args(Nfs4.WRITE_LT, 0, lock, 0, -1L)));
      };
    });
  }

  static void awaitNoOpenFiles(V4Gateway gw) {
    try {
      Slowdown.waitUntil(() -> gw.server.openFiles() == 0, Duration.ofSeconds(15));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    assertThat(gw.server.openFiles()).isZero();
  }

  static Map<String, Map<String, Long>> rows() throws IOException {
    return CostTable.read(Path.of("..", "SEMANTICS.md"), "nfs4-contract", "nfs4-");
  }

  @TestFactory
  Stream<DynamicTest> everyRowHoldsAndEveryScenarioHasARow() throws IOException {
    Map<String, Map<String, Long>> rows = rows();
    assertThat(rows.keySet()).as("NFSv4.1 rows of SEMANTICS.md").containsExactlyInAnyOrderElementsOf(
        SCENARIOS.keySet());
    return rows.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      Path dir = Files.createTempDirectory(state, e.getKey());
      try (V4Gateway gw = V4Gateway.simple(dir); V4Client c = new V4Client(gw.port(), 1000, 1000)) {
        byte[] root = DirOps.fh(c, "/" + V4Gateway.BUCKET);
        ok(c, putfh(root), DirOps.mkdir("d"));
        byte[] d = DirOps.fh(c, "/" + V4Gateway.BUCKET + "/d");
        Runnable action = SCENARIOS.get(e.getKey()).setUp(gw, c, d);
        gw.emu.counters().reset();
        action.run();
        Map<String, Long> got = new TreeMap<>(gw.emu.counters().snapshot());
        got.keySet().removeIf(k -> k.startsWith("Bytes"));
        got.values().removeIf(v -> v == 0);
        assertThat(got).as(e.getKey()).isEqualTo(e.getValue());
      }
    }));
  }
}
