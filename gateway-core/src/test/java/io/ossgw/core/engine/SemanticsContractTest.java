package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Holds SEMANTICS.md to the code: every row of its request-cost table (between the {@code contract:begin/end} markers)
 * names a scenario here; each runs on a fresh emulator and engine, and the OSS requests its action made must be exactly
 * the ones the row lists. A row without a scenario, or a scenario without a row, fails too.
 */
class SemanticsContractTest {
  private static final Path DOC = Path.of("..", "SEMANTICS.md");
  private static final Pattern ROW = Pattern.compile("^\\|\\s*([A-Za-z0-9-]+)\\s*\\|[^|]*\\|([^|]*)\\|\\s*$");

  @TempDir Path state;

  /** Setup (not counted) returns the action (counted). */
  interface Scenario {
    Runnable setUp(TestGateway gw);
  }

  private static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();

  static {
    SCENARIOS.put("stat-file-cold", gw -> {
      writeFile(gw.mount(), "/f", utf8("x"));
      VirtualFileSystem cold = remount(gw);
      return () -> cold.getattr("/f");
    });
    SCENARIOS.put("stat-dir-marker-cold", gw -> {
      gw.mount().mkdir("/d", 0755, USER);
      VirtualFileSystem cold = remount(gw);
      return () -> cold.getattr("/d");
    });
    SCENARIOS.put("stat-dir-implicit-cold", gw -> {
      gw.sdk.putObject(BUCKET, "imp/x", new ByteArrayInputStream(utf8("x")));
      VirtualFileSystem cold = gw.mount();
      return () -> cold.getattr("/imp");
    });
    SCENARIOS.put("stat-missing-cold", gw -> {
      VirtualFileSystem cold = gw.mount();
      return () -> missing(cold, "/nope");
    });
    SCENARIOS.put("stat-missing-again", gw -> {
      VirtualFileSystem fs = gw.mount();
      missing(fs, "/nope");
      return () -> missing(fs, "/nope");
    });
    SCENARIOS.put("stat-missing-second", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/f", utf8("x"));
      VirtualFileSystem cold = remount(gw);
      missing(cold, "/nope");
      return () -> missing(cold, "/nope2");
    });
    SCENARIOS.put("stat-missing-third", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/f", utf8("x"));
      VirtualFileSystem cold = remount(gw);
      missing(cold, "/nope");
      missing(cold, "/nope2");
      return () -> missing(cold, "/nope3");
    });
    SCENARIOS.put("stat-missing-listed", gw -> {
      VirtualFileSystem fs = gw.mount();
      fs.readdir("/");
      return () -> missing(fs, "/nope");
    });
    SCENARIOS.put("stat-cached", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/f", utf8("x"));
      VirtualFileSystem cold = remount(gw);
      cold.getattr("/f");
      return () -> cold.getattr("/f");
    });
    SCENARIOS.put("readdir-own-1200-cold", gw -> {
      VirtualFileSystem fs = gw.mount();
      fs.mkdir("/d", 0755, USER);
      for (int i = 0; i < 1200; i++) {
        writeFile(fs, "/d/f" + i, utf8("x"));
      }
      VirtualFileSystem cold = remount(gw);
      cold.getattr("/d");
      return () -> assertThat(cold.readdir("/d").entries()).hasSize(1200);
    });
    SCENARIOS.put("readdir-foreign-10-cold", gw -> foreignListing(gw.mount()));
    SCENARIOS.put("readdir-foreign-10-optimize", gw -> foreignListing(gw.mount("readdir_optimize")));
    SCENARIOS.put("create-empty", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> {
        FileHandle h = fs.create("/new", 0644, OpenFlags.READ_WRITE, false, USER);
        fs.flush(h);
        fs.release(h);
      };
    });
    SCENARIOS.put("touch-new", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> {
        // coreutils touch: open(O_CREAT) as fd 3, dup2(3, 0), close(3), futimens(0, NULL), close(0): the FLUSH of
        // close(3) is the first close of a bare new file and is deferred; close(0) uploads it with the new times
        FileHandle h = fs.create("/new", 0644, OpenFlags.READ_WRITE, false, USER);
        fs.flush(h);
        java.time.Instant now = java.time.Instant.now();
        fs.setattr("/new", SetAttr.times(now, now), null, USER);
        fs.flush(h);
        fs.release(h);
      };
    });
    SCENARIOS.put("create-utimens-close", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> {
        FileHandle h = fs.create("/new", 0644, OpenFlags.READ_WRITE, false, USER);
        java.time.Instant now = java.time.Instant.now();
        fs.setattr("/new", SetAttr.times(now, now), null, USER);
        fs.setattr("/new", SetAttr.mode(0600), null, USER);
        fs.flush(h);
        fs.release(h);
      };
    });
    SCENARIOS.put("create-redirect", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> {
        FileHandle h = fs.create("/new", 0644, OpenFlags.READ_WRITE, false, USER);
        fs.flush(h);
        fs.write(h, 0, ByteBuffer.wrap(utf8("hi\n")));
        fs.flush(h);
        fs.release(h);
      };
    });
    SCENARIOS.put("write-12MiB", gw -> {
      VirtualFileSystem fs = gw.mount("multipart_size=5");
      fs.readdir("/");
      return () -> writeFile(fs, "/big", new byte[12 * 1024 * 1024]);
    });
    SCENARIOS.put("read-100KiB", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/r", new byte[100 * 1024]);
      VirtualFileSystem cold = remount(gw);
      cold.getattr("/r");
      return () -> assertThat(readFile(cold, "/r")).hasSize(100 * 1024);
    });
    SCENARIOS.put("read-changed", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/r", utf8("version one"));
      gw.sdk.putObject(BUCKET, "r", new ByteArrayInputStream(utf8("version two")));
      return () -> assertThat(readFile(fs, "/r")).isEqualTo(utf8("version two"));
    });
    SCENARIOS.put("append-appendable", gw -> {
      com.aliyun.oss.model.AppendObjectRequest req =
          new com.aliyun.oss.model.AppendObjectRequest(BUCKET, "log", new ByteArrayInputStream(utf8("first\n")));
      req.setPosition(0L);
      gw.sdk.appendObject(req);
      VirtualFileSystem fs = gw.mount();
      fs.getattr("/log");
      return () -> appendAtEnd(fs, "/log", new byte[1024]);
    });
    SCENARIOS.put("append-normal-1MiB", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/n", new byte[1024 * 1024]);
      return () -> appendAtEnd(fs, "/n", new byte[100 * 1024]);
    });
    SCENARIOS.put("append-small", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/s", utf8("0123456789"));
      return () -> appendAtEnd(fs, "/s", utf8("more"));
    });
    SCENARIOS.put("read-use-cache", gw -> {
      String cache = "use_cache=" + gw.stateDir.resolve("cache");
      VirtualFileSystem fs = gw.mount(cache);
      writeFile(fs, "/r", new byte[100 * 1024]);
      readFile(fs, "/r");
      gw.closeEngines();
      VirtualFileSystem cold = gw.mount(cache);
      cold.getattr("/r");
      return () -> assertThat(readFile(cold, "/r")).hasSize(100 * 1024);
    });
    SCENARIOS.put("truncate-path", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/t", new byte[100 * 1024]);
      VirtualFileSystem cold = remount(gw);
      cold.getattr("/t");
      return () -> cold.setattr("/t", SetAttr.size(10), null, USER);
    });
    SCENARIOS.put("chmod", gw -> {
      VirtualFileSystem fs = gw.mount();
      writeFile(fs, "/c", utf8("x"));
      return () -> fs.setattr("/c", SetAttr.mode(0600), null, USER);
    });
    SCENARIOS.put("chmod-foreign", gw -> {
      gw.sdk.putObject(BUCKET, "c", new ByteArrayInputStream(utf8("x")));
      VirtualFileSystem fs = gw.mount();
      fs.getattr("/c");
      return () -> fs.setattr("/c", SetAttr.mode(0600), null, USER);
    });
    SCENARIOS.put("chmod-foreign-optimize", gw -> {
      gw.sdk.putObject(BUCKET, "c", new ByteArrayInputStream(utf8("x")));
      VirtualFileSystem fs = gw.mount("readdir_optimize");
      fs.readdir("/");
      return () -> fs.setattr("/c", SetAttr.mode(0600), null, USER);
    });
    SCENARIOS.put("chmod-foreign-optimize-read", gw -> {
      gw.sdk.putObject(BUCKET, "c", new ByteArrayInputStream(utf8("x")));
      VirtualFileSystem fs = gw.mount("readdir_optimize");
      fs.readdir("/");
      return () -> {
        assertThat(readFile(fs, "/c")).hasSize(1);
        fs.setattr("/c", SetAttr.mode(0600), null, USER);
      };
    });
    SCENARIOS.put("mkdir", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> fs.mkdir("/d", 0755, USER);
    });
    SCENARIOS.put("rmdir", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      fs.mkdir("/d", 0755, USER);
      return () -> fs.rmdir("/d");
    });
    SCENARIOS.put("unlink", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      writeFile(fs, "/u", utf8("x"));
      return () -> fs.unlink("/u");
    });
    SCENARIOS.put("rename-file", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      writeFile(fs, "/a", utf8("x"));
      return () -> fs.rename("/a", "/b");
    });
    SCENARIOS.put("rename-dir-3", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      fs.mkdir("/src", 0755, USER);
      for (int i = 0; i < 3; i++) {
        writeFile(fs, "/src/f" + i, utf8("x"));
      }
      return () -> fs.rename("/src", "/dst");
    });
    SCENARIOS.put("symlink", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> fs.symlink("target", "/l", USER);
    });
    SCENARIOS.put("mknod", gw -> {
      VirtualFileSystem fs = listedRoot(gw);
      return () -> fs.mknod("/p", io.ossgw.core.vfs.FileType.FIFO, 0644, 0, USER);
    });
    SCENARIOS.put("readlink-cold", gw -> {
      gw.mount().symlink("target", "/l", USER);
      VirtualFileSystem cold = remount(gw);
      return () -> {
        cold.getattr("/l");
        assertThat(cold.readlink("/l")).isEqualTo("target");
      };
    });
  }

  /** Opens without truncation, writes at the end, closes (what {@code >>} does). */
  private static void appendAtEnd(VirtualFileSystem fs, String path, byte[] data) {
    long size = fs.getattr(path).size();
    FileHandle h = fs.open(path, OpenFlags.READ_WRITE, USER);
    try {
      fs.write(h, size, ByteBuffer.wrap(data));
    } finally {
      fs.release(h);
    }
  }

  private static VirtualFileSystem remount(TestGateway gw) {
    gw.closeEngines();
    return gw.mount();
  }

  private static VirtualFileSystem listedRoot(TestGateway gw) {
    VirtualFileSystem fs = gw.mount();
    fs.readdir("/");
    return fs;
  }

  private static Runnable foreignListing(VirtualFileSystem fs) {
    return () -> assertThat(fs.readdir("/").entries()).hasSize(10);
  }

  private static void missing(VirtualFileSystem fs, String path) {
    try {
      fs.getattr(path);
      throw new AssertionError(path + " should not exist");
    } catch (FsException e) {
      assertThat(e.errno()).isEqualTo(io.ossgw.core.vfs.Errno.ENOENT);
    }
  }

  static Map<String, Map<String, Long>> contract() throws Exception {
    List<String> lines = Files.readAllLines(DOC);
    int begin = lines.indexOf("<!-- contract:begin -->");
    int end = lines.indexOf("<!-- contract:end -->");
    assertThat(begin).as("contract markers in SEMANTICS.md").isGreaterThanOrEqualTo(0).isLessThan(end);
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    for (String line : lines.subList(begin + 1, end)) {
      Matcher m = ROW.matcher(line);
      if (!m.matches() || m.group(1).equals("id") || m.group(1).matches("-+")) {
        continue;
      }
      Map<String, Long> costs = new TreeMap<>();
      for (String item : m.group(2).trim().split("\\s+")) {
        if (!item.isEmpty()) {
          String[] kv = item.split("=");
          costs.put(kv[0], Long.parseLong(kv[1]));
        }
      }
      out.put(m.group(1), costs);
    }
    return out;
  }

  @Test
  void everyRowHasAScenarioAndEveryScenarioARow() throws Exception {
    assertThat(contract().keySet()).containsExactlyInAnyOrderElementsOf(SCENARIOS.keySet());
  }

  @TestFactory
  Stream<DynamicTest> requestCostsMatchTheDocument() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    contract().forEach((id, expected) -> tests.add(DynamicTest.dynamicTest(id, () -> {
      Scenario s = SCENARIOS.get(id);
      assertThat(s).as("scenario for " + id).isNotNull();
      Path dir = Files.createTempDirectory(state, id);
      try (TestGateway gw = new TestGateway(dir)) {
        if (id.startsWith("readdir-foreign")) {
          for (int i = 0; i < 10; i++) {
            gw.sdk.putObject(BUCKET, "o" + i, new ByteArrayInputStream(utf8("o")));
          }
        }
        Runnable action = s.setUp(gw);
        gw.resetCounters();
        action.run();
        Map<String, Long> actual = new TreeMap<>();
        gw.emu.counters().snapshot().forEach((op, n) -> {
          if (n > 0 && !op.startsWith("Bytes")) {
            actual.put(op, n);
          }
        });
        assertThat(actual).as(id).isEqualTo(new HashMap<>(expected));
      }
    })));
    return tests.stream();
  }
}
