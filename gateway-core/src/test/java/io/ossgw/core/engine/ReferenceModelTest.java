package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static org.assertj.core.api.Assertions.assertThat;

import com.aliyun.oss.model.ListObjectsV2Request;
import com.aliyun.oss.model.ListObjectsV2Result;
import com.aliyun.oss.model.OSSObjectSummary;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Random sequences of file operations through the engine, held against {@link FsModel}: each operation must succeed or
 * fail with the errno POSIX gives in the model's state, after each one the paths it touched must read back as the model
 * says (through the same engine, caches and all), and after a remount (a new engine) and at the end the whole tree,
 * through the engine and in the bucket itself (keys, bytes, directory markers), must be the model's. Files go from
 * empty to 11 MB (multipart uploads with {@code multipart_size=5}, UploadPartCopy renames above
 * {@code singlepart_copy_limit=5}), written at the start, at the end, past the end (a hole) and in the middle, and up
 * to two of them kept open and written through their handles while they are renamed, replaced or unlinked. Half the
 * runs go through {@link FaultyStore}: a transient failure every 7th request attempt, before the request is sent or
 * after OSS carried it out, which the engine's retries must hide. SEMANTICS.md "Durability and consistency" is the
 * contract: the bytes are in OSS when close returns.
 *
 * <p>Each sequence comes from a seed ({@value #RUNS} seeds by default; {@code -Dossgw.model.runs=N} for more,
 * {@code -Dossgw.model.seed=S} for one). A failing sequence is cut down, one operation at a time, to the shortest that
 * still fails, and the failure names the seed and that sequence.
 */
class ReferenceModelTest {
  private static final List<String> NAMES = List.of("a", "b", "a/c", "f", "g", "a/f", "a/g", "b/f", "a/c/f");
  private static final int MB = 1 << 20;

  sealed interface Op {}

  /** open(O_RDWR|O_CREAT), one write of a size picked by {@code size}, at a place picked by {@code where}, close. */
  record Write(int path, int where, int size, long seed) implements Op {}

  record Truncate(int path, int how) implements Op {}

  record Unlink(int path) implements Op {}

  record Mkdir(int path) implements Op {}

  record Rmdir(int path) implements Op {}

  record Rename(int from, int to) implements Op {}

  /** The engine closed (a clean unmount, every open handle closed first) and a new one started: caches gone. */
  record Remount() implements Op {}

  /** open(O_RDWR|O_CREAT) kept open in handle slot {@code slot} (0 or 1; a slot in use is closed first). */
  record Open(int slot, int path) implements Op {}

  /** A write through the handle in {@code slot}, wherever its file is now (renamed, replaced or unlinked). */
  record WriteOpen(int slot, int where, int size, long seed) implements Op {}

  /** close(2) of the handle in {@code slot}: its file's bytes are in OSS when it returns, if it still has a name. */
  record Close(int slot) implements Op {}

  /** fsync(2) of the handle in {@code slot}: the bucket holds its file's bytes at once, if it still has a name. */
  record Fsync(int slot) implements Op {}

  private static final int RUNS = 40;

  @TestFactory
  Stream<DynamicTest> randomSequences() {
    String one = System.getProperty("ossgw.model.seed");
    LongStream seeds = one != null ? LongStream.of(Long.parseLong(one))
        : LongStream.rangeClosed(1, Long.getLong("ossgw.model.runs", RUNS));
    return seeds.mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
      List<Op> ops = sequence(new SplittableRandom(seed));
      boolean faults = seed % 2 == 0;
      AssertionError failure = failure(ops, faults);
      if (failure != null) {
        List<Op> shortest = shortest(ops, faults);
        throw new AssertionError("seed " + seed + (faults ? ", with faults" : "") + ": " + failure.getMessage()
            + "\nshortest failing sequence: " + shortest + "\nits failure: " + failure(shortest, faults).getMessage(),
            failure);
      }
    }));
  }

  /** 4 to 30 operations, writes the most frequent, then renames, mkdirs and handles kept open. */
  static List<Op> sequence(SplittableRandom r) {
    List<Op> ops = new ArrayList<>();
    int n = 4 + r.nextInt(27);
    for (int i = 0; i < n; i++) {
      int path = r.nextInt(NAMES.size());
      int kind = r.nextInt(29);
      ops.add(kind < 8 ? new Write(path, r.nextInt(4), r.nextInt(100), r.nextLong())
          : kind < 10 ? new Truncate(path, r.nextInt(4))
          : kind < 12 ? new Unlink(path)
          : kind < 16 ? new Mkdir(path)
          : kind < 17 ? new Rmdir(path)
          : kind < 21 ? new Rename(path, r.nextInt(NAMES.size()))
          : kind < 22 ? new Remount()
          : kind < 24 ? new Open(r.nextInt(2), path)
          : kind < 27 ? new WriteOpen(r.nextInt(2), r.nextInt(4), r.nextInt(100), r.nextLong())
          : kind < 28 ? new Close(r.nextInt(2))
          : new Fsync(r.nextInt(2)));
    }
    return ops;
  }

  /** Leaves out one operation at a time while the sequence still fails (at most 100 reruns). */
  private static List<Op> shortest(List<Op> ops, boolean faults) throws IOException {
    List<Op> current = new ArrayList<>(ops);
    int reruns = 0;
    for (int i = current.size() - 1; i >= 0 && reruns < 100; i--) {
      List<Op> without = new ArrayList<>(current);
      without.remove(i);
      reruns++;
      if (failure(without, faults) != null) {
        current = without;
      }
    }
    return current;
  }

  /** Runs a sequence on a new emulator and engine; the assertion it failed, or null. */
  private static AssertionError failure(List<Op> ops, boolean faults) throws IOException {
    Path state = Files.createTempDirectory("ossgw-model");
    try (TestGateway gw = new TestGateway(state)) {
      Run run = new Run(gw, faults);
      for (Op op : ops) {
        run.apply(op);
      }
      run.remount();
      run.checkAll();
      return null;
    } catch (AssertionError e) {
      return e;
    } finally {
      try (Stream<Path> s = Files.walk(state)) {
        s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** One sequence: the engine under test, the model, and what to compare after each step. */
  private static final class Run {
    private final TestGateway gw;
    private final boolean faults;
    private final FsModel model = new FsModel();
    private final FileHandle[] handles = new FileHandle[2];
    private final FsModel.Inode[] opened = new FsModel.Inode[2];
    private VirtualFileSystem fs;

    Run(TestGateway gw, boolean faults) {
      this.gw = gw;
      this.faults = faults;
      mount();
    }

    private void mount() {
      String[] options = {"multipart_size=5", "singlepart_copy_limit=5", "parallel_count=2"};
      fs = faults ? gw.mountThrough(s -> new FaultyStore(s, 7), options) : gw.mount(options);
    }

    void remount() {
      for (int slot = 0; slot < handles.length; slot++) {
        close(slot);
      }
      gw.closeEngines();
      mount();
    }

    void apply(Op op) {
      switch (op) {
        case Write w -> write(NAMES.get(w.path()), w);
        case Truncate t -> truncate(NAMES.get(t.path()), t);
        case Unlink u -> simple(u, NAMES.get(u.path()), model::unlink, p -> fs.unlink(p));
        case Mkdir m -> simple(m, NAMES.get(m.path()), model::mkdir, p -> fs.mkdir(p, 0755, USER));
        case Rmdir r -> simple(r, NAMES.get(r.path()), model::rmdir, p -> fs.rmdir(p));
        case Rename r -> rename(NAMES.get(r.from()), NAMES.get(r.to()), r);
        case Remount r -> {
          remount();
          checkAll();
        }
        case Open o -> open(o);
        case Fsync f -> fsync(f);
        case WriteOpen w -> writeOpen(w);
        case Close c -> {
          String p = opened[c.slot()] == null ? null : model.pathOf(opened[c.slot()]);
          close(c.slot());
          if (p != null) {
            check(c, p);
          }
        }
      }
    }

    private void open(Open o) {
      close(o.slot());
      String p = NAMES.get(o.path());
      boolean existed = model.isFile(p);
      Errno parent = model.parentError(p);
      Object got = model.open(p);
      Errno expected = got instanceof Errno e ? e : null;
      expect(o, p, parent, expected, () -> handles[o.slot()] = existed ? fs.open("/" + p, OpenFlags.READ_WRITE, USER)
          : fs.create("/" + p, 0644, OpenFlags.READ_WRITE, false, USER), p);
      if (expected == null) {
        opened[o.slot()] = (FsModel.Inode) got;
      }
    }

    private void writeOpen(WriteOpen w) {
      FsModel.Inode f = opened[w.slot()];
      if (f == null) {
        return;
      }
      long offset = offset(w.where(), f.data.length);
      byte[] data = bytes(w.size(), w.seed());
      f.write(offset, data);
      TestGateway.writeAt(fs, handles[w.slot()], offset, data);
      String p = model.pathOf(f);
      if (p != null) {
        check(w, p);
      }
    }

    private void fsync(Fsync f) {
      if (handles[f.slot()] == null) {
        return;
      }
      fs.fsync(handles[f.slot()], false);
      String p = model.pathOf(opened[f.slot()]);
      if (p != null) {
        assertThat(gw.objectBytes(p)).as("after %s: the bucket's bytes of %s", f, p).isEqualTo(model.bytes(p));
      }
    }

    /** close(2): flush (the upload, whose error close returns), then release. */
    private void close(int slot) {
      if (handles[slot] == null) {
        return;
      }
      try {
        fs.flush(handles[slot]);
      } finally {
        fs.release(handles[slot]);
        handles[slot] = null;
        opened[slot] = null;
      }
    }

    private static long offset(int where, long length) {
      return switch (where) {
        case 0 -> 0;
        case 1 -> length;
        case 2 -> length + 5_000; // a hole
        default -> length / 2;
      };
    }

    /** 0-59 KB (60 %), up to 1.2 MB (30 %), 5-11.3 MB (10 %: multipart), filled from {@code seed}. */
    private static byte[] bytes(int s, long seed) {
      int size = s < 60 ? s * 1_000 : s < 90 ? (s - 60) * 40_000 : 5 * MB + (s - 90) * 700_000;
      byte[] data = new byte[size];
      new SplittableRandom(seed).nextBytes(data);
      return data;
    }

    private void write(String p, Write w) {
      long offset = offset(w.where(), model.isFile(p) ? model.bytes(p).length : 0);
      byte[] data = bytes(w.size(), w.seed());
      boolean existed = model.isFile(p);
      Errno parent = model.parentError(p);
      Errno expected = model.write(p, offset, data);
      expect(w, p, parent, expected, () -> {
        FileHandle h = existed ? fs.open("/" + p, OpenFlags.READ_WRITE, USER)
            : fs.create("/" + p, 0644, OpenFlags.READ_WRITE, false, USER);
        try {
          TestGateway.writeAt(fs, h, offset, data);
          fs.flush(h);
        } finally {
          fs.release(h);
        }
      }, p);
    }

    /** An operation on one path: the model's answer, then the engine's on "/" + the path. */
    private void simple(Op op, String p, java.util.function.Function<String, Errno> inModel,
        java.util.function.Consumer<String> call) {
      Errno parent = model.parentError(p);
      expect(op, p, parent, inModel.apply(p), () -> call.accept("/" + p), p);
    }

    private void truncate(String p, Truncate op) {
      long length = model.isFile(p) ? model.bytes(p).length : 0;
      long size = switch (op.how()) {
        case 0 -> 0;
        case 1 -> length / 2;
        case 2 -> length + 3_000;
        default -> length + 6 * MB;
      };
      Errno parent = model.parentError(p);
      expect(op, p, parent, model.truncate(p, size),
          () -> fs.setattr("/" + p, SetAttr.size(size), null, USER), p);
    }

    private void rename(String a, String b, Rename op) {
      if (FsModel.nested(a, b)) {
        return; // the kernel's own checks (EINVAL, ENOTEMPTY) answer these before a file system sees them
      }
      Errno parent = model.parentError(a) != null ? model.parentError(a) : model.parentError(b);
      expect(op, a + " -> " + b, parent, model.rename(a, b), () -> fs.rename("/" + a, "/" + b), a, b);
    }

    /**
     * Runs {@code call} and holds its outcome to {@code expected}; a failure caused by an ancestor that is missing or
     * a file ({@code parent} not null) may be either ENOENT or ENOTDIR, as the path is resolved in one piece here.
     */
    private void expect(Op op, String what, Errno parent, Errno expected, Runnable call, String... touched) {
      Errno got = null;
      try {
        call.run();
      } catch (FsException e) {
        got = e.errno();
      }
      if (parent != null && expected == parent) {
        assertThat(got).as("%s %s", op, what).isIn(Errno.ENOENT, Errno.ENOTDIR);
      } else {
        assertThat(got).as("%s %s", op, what).isEqualTo(expected);
      }
      for (String t : touched) {
        check(op, t);
        check(op, FsModel.parent(t));
      }
    }

    /** The path as the engine shows it against the model: type, size, bytes, a directory's names. */
    private void check(Op after, String p) {
      String path = "/" + p;
      if (model.isFile(p)) {
        FileAttr a = fs.getattr(path);
        assertThat(a.isRegular()).as("after %s: %s is a file", after, p).isTrue();
        assertThat(a.size()).as("after %s: size of %s", after, p).isEqualTo(model.bytes(p).length);
        assertThat(TestGateway.readFile(fs, path)).as("after %s: bytes of %s", after, p)
            .isEqualTo(model.bytes(p));
      } else if (model.isDir(p)) {
        assertThat(fs.getattr(path.equals("/") ? "/" : path).isDirectory()).as("after %s: %s is a directory", after, p)
            .isTrue();
        assertThat(names(path)).as("after %s: listing of %s", after, p).isEqualTo(model.children(p));
      } else {
        Errno got = null;
        try {
          fs.getattr(path);
        } catch (FsException e) {
          got = e.errno();
        }
        assertThat(got).as("after %s: %s is absent", after, p).isIn(Errno.ENOENT, Errno.ENOTDIR);
      }
    }

    private TreeSet<String> names(String dir) {
      TreeSet<String> names = new TreeSet<>();
      for (DirEntry e : fs.readdir(dir).entries()) {
        names.add(e.name());
      }
      return names;
    }

    /** Every directory and file of the model through the engine, then the bucket's keys and bytes. */
    void checkAll() {
      Op op = new Remount();
      for (String d : model.dirs) {
        check(op, d);
      }
      for (String f : model.files.keySet()) {
        check(op, f);
      }
      TreeMap<String, byte[]> objects = new TreeMap<>();
      Set<String> markers = new TreeSet<>();
      for (String key : keys()) {
        if (key.endsWith("/")) {
          markers.add(key.substring(0, key.length() - 1));
        } else {
          objects.put(key, gw.objectBytes(key));
        }
      }
      assertThat(objects.keySet()).as("the bucket's files").isEqualTo(model.files.keySet());
      objects.forEach((k, v) -> assertThat(v).as("the bucket's bytes of %s", k).isEqualTo(model.bytes(k)));
      assertThat(model.dirs).as("every marker is a directory").containsAll(markers);
      for (String d : model.dirs) {
        boolean held = d.isEmpty() || markers.contains(d)
            || Stream.concat(objects.keySet().stream(), markers.stream()).anyMatch(k -> k.startsWith(d + "/"));
        assertThat(held).as("directory %s is in the bucket", d).isTrue();
      }
    }

    private List<String> keys() {
      List<String> keys = new ArrayList<>();
      String token = null;
      do {
        ListObjectsV2Request req = new ListObjectsV2Request(BUCKET).withMaxKeys(1000).withContinuationToken(token);
        ListObjectsV2Result r = gw.sdk.listObjectsV2(req);
        r.getObjectSummaries().stream().map(OSSObjectSummary::getKey).forEach(keys::add);
        token = r.isTruncated() ? r.getNextContinuationToken() : null;
      } while (token != null);
      return keys;
    }
  }
}
