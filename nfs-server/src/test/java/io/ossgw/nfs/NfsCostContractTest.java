package io.ossgw.nfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.nfs.xdr.*;
import io.ossgw.testsupport.Slowdown;
import java.io.IOException;
import java.nio.ByteBuffer;
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
 * Holds the NFS request-cost table to the code: every row between {@code <!-- nfs-contract:begin -->} and
 * {@code <!-- nfs-contract:end -->} (in SEMANTICS.md once merged, else docs/nfs-semantics.md) is run through the NFS
 * client against the OSS emulator, and the requests it cost must be exactly those the row lists.
 */
class NfsCostContractTest {
  private static final Caller USER = new Caller(1000, 1000, new int[0]);

  @TempDir
  Path state;

  /** Setup (not counted) returns the action (counted). */
  interface Scenario {
    Runnable setUp(NfsGateway gw, NfsClient c, nfs_fh3 root);
  }

  static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

  static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new java.util.Random(n).nextBytes(b);
    return b;
  }

  static nfs_fh3 dir(NfsClient c, nfs_fh3 root) {
    return c.mkdir(root, "d", 0777).obj();
  }

  static {
    SCENARIOS.put("nfs-getattr-cached", (gw, c, root) -> {
      nfs_fh3 f = c.put(dir(c, root), "f", bytes(10));
      c.getattr(f);
      return () -> c.getattr(f);
    });
    SCENARIOS.put("nfs-lookup-cold", (gw, c, root) -> {
      c.put(dir(c, root), "f", bytes(10));
      gw.restart();
      NfsClient fresh = new NfsClient(gw.port(), 1000, 1000);
      nfs_fh3 d = fresh.lookup(root, "d").object();
      return () -> fresh.lookup(d, "f");
    });
    SCENARIOS.put("nfs-lookup-missing-listed", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> c.lookup(d, "nope");
    });
    SCENARIOS.put("nfs-create-write-commit", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> c.put(d, "f", bytes(100 * 1024));
    });
    SCENARIOS.put("nfs-create-cold", (gw, c, root) -> {
      dir(c, root);
      gw.restart();
      NfsClient fresh = new NfsClient(gw.port(), 1000, 1000);
      nfs_fh3 d = fresh.lookup(fresh.root("/" + NfsGateway.BUCKET), "d").object();
      return () -> fresh.put(d, "f", bytes(100 * 1024));
    });
    SCENARIOS.put("nfs-create-existing-cold", (gw, c, root) -> {
      c.put(dir(c, root), "f", bytes(10));
      gw.restart();
      NfsClient fresh = new NfsClient(gw.port(), 1000, 1000);
      nfs_fh3 d = fresh.lookup(fresh.root("/" + NfsGateway.BUCKET), "d").object();
      return () -> {
        assertThat(fresh.create(d, "f", 0644).status()).isEqualTo(nfsstat3.NFS3_OK);
        awaitNoOpenFiles(gw);
      };
    });
    SCENARIOS.put("nfs-create-idle", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> {
        c.create(d, "empty", 0644);
        awaitNoOpenFiles(gw);
      };
    });
    SCENARIOS.put("nfs-create-setattr-times", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> {
        // `touch f` through the Linux NFS client: CREATE, then SETATTR of both times to the server's clock
        nfs_fh3 f = c.create(d, "t", 0644).obj();
        c.setattr(f, new sattr3(null, null, null, null, Nfs3.SET_TO_SERVER_TIME, null, Nfs3.SET_TO_SERVER_TIME, null));
        awaitNoOpenFiles(gw);
      };
    });
    SCENARIOS.put("nfs-write-12MiB", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> c.put(d, "big", bytes(12 << 20));
    });
    SCENARIOS.put("nfs-write-filesync", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> {
        nfs_fh3 f = c.create(d, "s", 0644).obj();
        c.write(f, 0, bytes(1000), Nfs3.FILE_SYNC);
      };
    });
    SCENARIOS.put("nfs-commit-again", (gw, c, root) -> {
      nfs_fh3 f = c.put(dir(c, root), "f", bytes(1000));
      return () -> assertThat(c.commit(f).status()).isEqualTo(nfsstat3.NFS3_OK);
    });
    SCENARIOS.put("nfs-read-100KiB", (gw, c, root) -> {
      nfs_fh3 f = c.put(dir(c, root), "f", bytes(100 * 1024));
      awaitNoOpenFiles(gw);
      return () -> c.readAll(f, 1 << 20);
    });
    SCENARIOS.put("nfs-setattr-mode", (gw, c, root) -> {
      nfs_fh3 f = c.put(dir(c, root), "f", bytes(10));
      awaitNoOpenFiles(gw);
      return () -> c.setattr(f, new sattr3(0600, null, null, null, 0, null, 0, null));
    });
    SCENARIOS.put("nfs-setattr-size", (gw, c, root) -> {
      nfs_fh3 f = c.put(dir(c, root), "f", bytes(100 * 1024));
      awaitNoOpenFiles(gw);
      return () -> c.setattr(f, new sattr3(null, null, null, 10L, 0, null, 0, null));
    });
    SCENARIOS.put("nfs-mkdir", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      return () -> c.mkdir(d, "sub", 0755);
    });
    SCENARIOS.put("nfs-remove", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      c.put(d, "f", bytes(10));
      awaitNoOpenFiles(gw);
      return () -> c.remove(d, "f");
    });
    SCENARIOS.put("nfs-rmdir", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      c.mkdir(d, "sub", 0755);
      return () -> c.rmdir(d, "sub");
    });
    SCENARIOS.put("nfs-rename-file", (gw, c, root) -> {
      nfs_fh3 d = dir(c, root);
      c.put(d, "f", bytes(10));
      awaitNoOpenFiles(gw);
      return () -> c.rename(d, "f", d, "g");
    });
    SCENARIOS.put("nfs-readdirplus-own-1200-restart", (gw, c, root) -> {
      VirtualFileSystem fs = gw.engine.fileSystem();
      fs.mkdir("/many", 0755, USER);
      for (int i = 0; i < 1200; i++) {
        FileHandle h = fs.create("/many/f" + i, 0644, OpenFlags.READ_WRITE, false, USER);
        fs.write(h, 0, ByteBuffer.wrap(bytes(1)));
        fs.release(h);
      }
      gw.restart();
      NfsClient fresh = new NfsClient(gw.port(), 1000, 1000);
      nfs_fh3 many = fresh.lookup(fresh.root("/" + NfsGateway.BUCKET), "many").object();
      return () -> {
        long cookie = 0;
        long verf = 0;
        while (true) {
          READDIRPLUS3res r = fresh.readdirplus(many, cookie, verf, 64 * 1024);
          assertThat(r.status()).isEqualTo(nfsstat3.NFS3_OK);
          verf = r.cookieverf();
          cookie = r.entries().getLast().cookie();
          if (r.eof()) {
            break;
          }
        }
      };
    });
    SCENARIOS.put("nfs-fsstat-fsinfo-pathconf", (gw, c, root) -> {
      c.getattr(root);
      return () -> {
        c.nfs(Nfs3.NFSPROC3_FSSTAT, new FSSTAT3args(root), FSSTAT3res::decode);
        c.nfs(Nfs3.NFSPROC3_FSINFO, new FSINFO3args(root), FSINFO3res::decode);
        c.nfs(Nfs3.NFSPROC3_PATHCONF, new PATHCONF3args(root), PATHCONF3res::decode);
      };
    });
  }

  static void awaitNoOpenFiles(NfsGateway gw) {
    try {
      Slowdown.waitUntil(() -> gw.server.openFiles() == 0, Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
    assertThat(gw.server.openFiles()).isZero();
  }

  static Path doc() {
    Path merged = Path.of("..", "SEMANTICS.md");
    try {
      if (Files.exists(merged) && Files.readString(merged).contains("<!-- nfs-contract:begin -->")) {
        return merged;
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return Path.of("..", "docs", "nfs-semantics.md");
  }

  static Map<String, Map<String, Long>> rows() throws IOException {
    return CostTable.read(doc(), "nfs-contract", "nfs-");
  }

  @TestFactory
  Stream<DynamicTest> everyRowHoldsAndEveryScenarioHasARow() throws IOException {
    Map<String, Map<String, Long>> rows = rows();
    assertThat(rows.keySet()).as("rows of " + doc()).containsExactlyInAnyOrderElementsOf(SCENARIOS.keySet());
    return rows.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
      Path dir = Files.createTempDirectory(state, e.getKey());
      try (NfsGateway gw = NfsGateway.simple(dir, "multipart_size=5")) {
        NfsClient c = new NfsClient(gw.port(), 1000, 1000);
        nfs_fh3 root = c.root("/" + NfsGateway.BUCKET);
        Runnable action = SCENARIOS.get(e.getKey()).setUp(gw, c, root);
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
