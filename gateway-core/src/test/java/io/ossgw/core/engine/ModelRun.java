package io.ossgw.core.engine;

import static io.ossgw.core.engine.ReferenceModelTest.NAMES;
import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.engine.ReferenceModelTest.Close;
import io.ossgw.core.engine.ReferenceModelTest.Fsync;
import io.ossgw.core.engine.ReferenceModelTest.Mkdir;
import io.ossgw.core.engine.ReferenceModelTest.Op;
import io.ossgw.core.engine.ReferenceModelTest.Open;
import io.ossgw.core.engine.ReferenceModelTest.ReadOpen;
import io.ossgw.core.engine.ReferenceModelTest.Remount;
import io.ossgw.core.engine.ReferenceModelTest.Rename;
import io.ossgw.core.engine.ReferenceModelTest.Rmdir;
import io.ossgw.core.engine.ReferenceModelTest.Truncate;
import io.ossgw.core.engine.ReferenceModelTest.Unlink;
import io.ossgw.core.engine.ReferenceModelTest.Write;
import io.ossgw.core.engine.ReferenceModelTest.WriteOpen;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One sequence of {@link ReferenceModelTest}: the engine under test (over {@link FaultyStore} when {@code faults}), the
 * model, the handles kept open, and what to compare after each step.
 */
final class ModelRun {
  private static final int MB = 1 << 20;

  private final TestGateway gw;
  private final boolean faults;
  private final FsModel model = new FsModel();
  private final FileHandle[] handles = new FileHandle[2];
  private final FsModel.Inode[] opened = new FsModel.Inode[2];
  private VirtualFileSystem fs;

  ModelRun(TestGateway gw, boolean faults) {
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
      case ReadOpen r -> readOpen(r);
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

  /**
   * Up to 64 KB through the handle at the start, the middle, near the end or past it: the model's bytes of the
   * handle's own file. A file no name reaches any more may answer EIO instead (bytes it never staged went with its
   * object), never another file's bytes.
   */
  private void readOpen(ReadOpen r) {
    FsModel.Inode f = opened[r.slot()];
    if (f == null) {
      return;
    }
    int length = f.data.length;
    long offset = switch (r.where()) {
      case 0 -> 0;
      case 1 -> length / 2;
      case 2 -> Math.max(0, length - 1_000);
      default -> length + 10;
    };
    int want = (int) Math.max(0, Math.min(64_000, length - offset));
    ByteBuffer dst = ByteBuffer.allocate(64_000);
    try {
      while (dst.position() < want && fs.read(handles[r.slot()], offset + dst.position(), dst) > 0) {
        // a read may end at a chunk's end
      }
    } catch (FsException e) {
      if (model.pathOf(f) == null && e.errno() == Errno.EIO) {
        return;
      }
      throw e;
    }
    assertThat(Arrays.copyOf(dst.array(), dst.position())).as("after %s: bytes read through the handle", r)
        .isEqualTo(Arrays.copyOfRange(f.data, (int) Math.min(offset, length), (int) Math.min(offset, length) + want));
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
    for (String key : gw.keys("")) {
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
}
