package io.ossgw.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import io.ossgw.core.vfs.Caller;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.OpenFlags;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The binding-neutral layer called directly, as a binding would: return codes, errno mapping, argument decoding. */
class FuseFilesystemTest {
  private static final Caller ALICE = new Caller(1000, 1000, null);
  private static final int O_RDWR = 2;
  private static final int O_CREAT_EXCL = 0200;

  private final InMemoryVfs vfs = new InMemoryVfs();
  private final FuseFilesystem fs = new FuseFilesystem(vfs, FuseOptions.defaults());
  private final Requests requests = new Requests();

  /** libfuse's requests as a binding would see them: calls between two {@link #next()} are one kernel request. */
  static final class Requests implements RequestMark {
    private String marked;

    /** libfuse starts serving another kernel request on this thread. */
    void next() {
      marked = null;
    }

    @Override
    public void set(String path) {
      marked = path;
    }

    @Override
    public boolean take(String path) {
      boolean was = path.equals(marked);
      marked = null;
      return was;
    }
  }

  {
    fs.requestMark(requests);
  }

  private FileAttr stat(String path) {
    AtomicReference<FileAttr> a = new AtomicReference<>();
    int r = fs.getattr(path, a::set);
    assertThat(r).as("getattr %s", path).isZero();
    return a.get();
  }

  @Test
  void fsExceptionsBecomeNegativeErrnos() {
    assertThat(fs.getattr("/missing", a -> {})).isEqualTo(-Errno.ENOENT.value());
    assertThat(fs.mkdir("/d", 0755, ALICE)).isZero();
    assertThat(fs.mkdir("/d", 0755, ALICE)).isEqualTo(-Errno.EEXIST.value());
    assertThat(fs.create("/d/f", 0644, O_RDWR, ALICE)).isPositive();
    assertThat(fs.rmdir("/d")).isEqualTo(-Errno.ENOTEMPTY.value());
    assertThat(fs.unlink("/d")).isEqualTo(-Errno.EISDIR.value());
    assertThat(fs.create("/d/f", 0644, O_RDWR | O_CREAT_EXCL, ALICE)).isEqualTo(-Errno.EEXIST.value());
    assertThat(fs.readlink("/d/f", ByteBuffer.allocate(10))).isEqualTo(-Errno.EINVAL.value());
    assertThat(fs.stats().errors(FuseOp.MKDIR)).isEqualTo(1);
    assertThat(fs.stats().count(FuseOp.MKDIR)).isEqualTo(2);
  }

  @Test
  void unexpectedExceptionsBecomeEioAndAreCounted() {
    vfs.explodeOn = "boom";
    assertThat(fs.getattr("/boom", a -> {})).isEqualTo(-Errno.EIO.value());
    assertThat(fs.readdir("/boom", fs.opendir("/boom"), 0, (n, a, o) -> false)).isEqualTo(-Errno.EIO.value());
    assertThat(fs.open("/boom", 0, ALICE)).isEqualTo(-Errno.EIO.value());
    // a sink that fails is a bug in the binding, still EIO and not a crash
    vfs.explodeOn = null;
    assertThat(fs.getattr("/", a -> {
      throw new IllegalStateException("bad sink");
    })).isEqualTo(-Errno.EIO.value());
    assertThat(fs.stats().unexpectedErrors()).isEqualTo(4);
  }

  @Test
  void readWriteThroughTheFhTable() {
    long fh = fs.create("/f", 0640, O_RDWR, ALICE);
    assertThat(fh).isPositive();
    FileAttr a = stat("/f");
    assertThat(a.uid()).isEqualTo(1000);
    assertThat(a.mode()).isEqualTo(0640);
    ByteBuffer src = ByteBuffer.wrap("hello world".getBytes(StandardCharsets.UTF_8));
    assertThat(fs.write("/f", fh, 3, src)).isEqualTo(11);
    ByteBuffer dst = ByteBuffer.allocate(100);
    assertThat(fs.read(null, fh, 0, dst)).isEqualTo(14); // null path: flag_nullpath_ok
    assertThat(dst.array()[0]).isZero();
    assertThat(new String(dst.array(), 3, 11, StandardCharsets.UTF_8)).isEqualTo("hello world");
    assertThat(fs.ftruncate(null, fh, 5, ALICE)).isZero();
    assertThat(stat("/f").size()).isEqualTo(5);
    AtomicReference<FileAttr> fa = new AtomicReference<>();
    assertThat(fs.fgetattr(null, fh, fa::set)).isZero();
    assertThat(fa.get().size()).isEqualTo(5);
    assertThat(fs.flush(null, fh)).isZero();
    assertThat(fs.fsync(null, fh, true)).isZero();
    assertThat(fs.openFiles()).isEqualTo(1);
    assertThat(fs.release(null, fh)).isZero();
    assertThat(fs.openFiles()).isZero();
    assertThat(vfs.openHandles()).isZero();
    // a released fh is EBADF everywhere
    assertThat(fs.read(null, fh, 0, dst.clear())).isEqualTo(-Errno.EBADF.value());
    assertThat(fs.write(null, fh, 0, dst.clear())).isEqualTo(-Errno.EBADF.value());
    assertThat(fs.release(null, fh)).isEqualTo(-Errno.EBADF.value());
    assertThat(fs.ftruncate(null, fh, 0, ALICE)).isEqualTo(-Errno.EBADF.value());
  }

  @Test
  void chownMinusOneLeavesThatIdAlone() {
    fs.release(null, fs.create("/o", 0644, O_RDWR, ALICE));
    assertThat(fs.chown("/o", 7, -1, Caller.ROOT)).isZero();
    assertThat(stat("/o").uid()).isEqualTo(7);
    assertThat(stat("/o").gid()).isEqualTo(1000);
    assertThat(fs.chown("/o", -1, 9, Caller.ROOT)).isZero();
    assertThat(stat("/o").uid()).isEqualTo(7);
    assertThat(stat("/o").gid()).isEqualTo(9);
    long before = vfs.calls("setattr");
    assertThat(fs.chown("/o", -1, -1, Caller.ROOT)).isZero();
    assertThat(vfs.calls("setattr")).isEqualTo(before);
    assertThat(fs.chmod("/o", 0100755, ALICE)).isZero(); // type bits are dropped
    assertThat(stat("/o").mode()).isEqualTo(0755);
  }

  @Test
  void utimensHonoursNowAndOmit() {
    fs.release(null, fs.create("/t", 0644, O_RDWR, ALICE));
    assertThat(fs.utimens("/t", 1000, 5, 2000, 6, ALICE)).isZero();
    assertThat(stat("/t").atime()).isEqualTo(Instant.ofEpochSecond(1000, 5));
    assertThat(stat("/t").mtime()).isEqualTo(Instant.ofEpochSecond(2000, 6));
    assertThat(fs.utimens("/t", 0, FuseFilesystem.UTIME_OMIT, 3000, 0, ALICE)).isZero();
    assertThat(stat("/t").atime()).isEqualTo(Instant.ofEpochSecond(1000, 5));
    assertThat(stat("/t").mtime()).isEqualTo(Instant.ofEpochSecond(3000));
    Instant before = Instant.now();
    assertThat(fs.utimens("/t", 0, FuseFilesystem.UTIME_NOW, 0, FuseFilesystem.UTIME_OMIT, ALICE)).isZero();
    assertThat(stat("/t").atime()).isAfterOrEqualTo(before);
    assertThat(stat("/t").mtime()).isEqualTo(Instant.ofEpochSecond(3000));
    long calls = vfs.calls("setattr");
    assertThat(fs.utimens("/t", 0, FuseFilesystem.UTIME_OMIT, 0, FuseFilesystem.UTIME_OMIT, ALICE)).isZero();
    assertThat(vfs.calls("setattr")).isEqualTo(calls);
  }

  @Test
  void readlinkIsNulTerminatedAndTruncatedToTheBuffer() {
    assertThat(fs.symlink("/a/long/target", "/l", ALICE)).isZero();
    ByteBuffer big = ByteBuffer.allocate(64);
    assertThat(fs.readlink("/l", big)).isZero();
    assertThat(big.position()).isEqualTo(15);
    assertThat(new String(big.array(), 0, 14, StandardCharsets.UTF_8)).isEqualTo("/a/long/target");
    assertThat(big.get(14)).isZero();
    ByteBuffer small = ByteBuffer.allocate(5);
    assertThat(fs.readlink("/l", small)).isZero();
    assertThat(small.array()).containsExactly('/', 'a', '/', 'l', 0);
    assertThat(fs.readlink("/l", ByteBuffer.allocate(0))).isEqualTo(-Errno.EINVAL.value());
  }

  @Test
  void readdirAddsDotsAndSkipsUnlookupableNames() {
    fs.mkdir("/dir", 0755, ALICE);
    fs.release(null, fs.create("/dir/b", 0644, O_RDWR, ALICE));
    fs.symlink("b", "/dir/a", ALICE);
    List<String> names = new ArrayList<>();
    List<FileAttr> attrs = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    long dh = fs.opendir("/dir");
    assertThat(fs.readdir("/dir", dh, 0, (n, a, o) -> {
      names.add(n);
      attrs.add(a);
      offsets.add(o);
      return false;
    })).isZero();
    assertThat(names).containsExactly(".", "..", "a", "b");
    assertThat(offsets).containsExactly(1L, 2L, 3L, 4L);
    assertThat(attrs.get(2).isSymlink()).isTrue();
    assertThat(attrs.get(3).ino()).isEqualTo(stat("/dir/b").ino());
    // a full buffer stops the listing
    List<String> first = new ArrayList<>();
    assertThat(fs.readdir("/dir", dh, 0, (n, a, o) -> first.add(n) && first.size() == 3)).isZero();
    assertThat(first).containsExactly(".", "..", "a");
    assertThat(fs.releasedir("/dir", dh)).isZero();
    assertThat(fs.readdir("/dir/b", fs.opendir("/dir/b"), 0, (n, a, o) -> false)).isEqualTo(-Errno.ENOTDIR.value());
  }

  /**
   * FUSE offset mode: each READDIR resumes after the entry the kernel kept last (the offset it passes back), reading
   * the engine page by page; entries created or removed between two READDIRs of one open directory shift nothing, and
   * a seekdir to an offset the handle no longer remembers counts from the start.
   */
  @Test
  void readdirResumesAfterTheLastKeptEntryAcrossChanges() {
    fs.mkdir("/big", 0755, ALICE);
    for (int i = 0; i < 300; i++) {
      fs.release(null, fs.create(String.format("/big/f%03d", i), 0644, O_RDWR, ALICE));
    }
    long dh = fs.opendir("/big");
    List<String> seen = new ArrayList<>();
    long[] next = {0};
    // a kernel buffer of 7 entries at a time
    int[] room = {0};
    while (true) {
      room[0] = 7;
      int before = seen.size();
      assertThat(fs.readdir("/big", dh, next[0], (n, a, o) -> {
        if (room[0]-- == 0) {
          return true;
        }
        seen.add(n);
        next[0] = o;
        return false;
      })).isZero();
      if (seen.size() == before) {
        break;
      }
      if (seen.size() >= 100 && !seen.contains("changed")) {
        seen.add("changed");
        fs.unlink("/big/f050"); // already listed: nothing shifts
        fs.unlink("/big/f150"); // not listed yet: never listed
        fs.release(null, fs.create("/big/f299z", 0644, O_RDWR, ALICE)); // sorts later: listed once
        fs.release(null, fs.create("/big/f000a", 0644, O_RDWR, ALICE)); // sorts before the position: not listed
      }
    }
    int changedAt = seen.indexOf("changed");
    assertThat(changedAt).as("the directory changed after about 100 entries").isBetween(100, 110);
    seen.remove(changedAt);
    List<String> expected = new ArrayList<>(List.of(".", ".."));
    for (int i = 0; i < 300; i++) {
      if (i != 150) {
        expected.add(String.format("f%03d", i));
      }
      if (i == 299) {
        expected.add("f299z");
      }
    }
    assertThat(seen).containsExactlyElementsOf(expected);
    assertThat(vfs.calls("readdir")).isLessThan(seen.size() / 7 * 2 + 3); // pages, not a listing per entry
    // a seekdir back to an old offset: counted from the start, in the directory as it is now
    List<String> again = new ArrayList<>();
    fs.readdir("/big", dh, OpenDirs.FIRST + 9, (n, a, o) -> again.add(n) && again.size() == 2);
    assertThat(again).as("entries 10 and 11 of f000, f000a, f001, ...").containsExactly("f009", "f010");
    fs.releasedir("/big", dh);
    assertThat(fs.openDirectories()).isZero();
  }

  @Test
  void namesOver255BytesAreRefusedBeforeTheVfs() {
    assertThat(FuseNames.tooLong("/x/" + "a".repeat(255))).isFalse();
    assertThat(FuseNames.tooLong("/x/" + "a".repeat(256))).isTrue();
    assertThat(FuseNames.tooLong("/" + "é".repeat(127))).isFalse(); // 254 bytes
    assertThat(FuseNames.tooLong("/" + "é".repeat(128))).isTrue(); // 256 bytes
    assertThat(FuseNames.tooLong("/" + "😀".repeat(64))).isTrue(); // 256 bytes in 128 chars
    assertThat(FuseNames.tooLong("/" + "a".repeat(300) + "/short")).isFalse(); // only the last component
    String longName = "/" + "n".repeat(256);
    int tooLong = -Errno.ENAMETOOLONG.value();
    assertThat(fs.create(longName, 0644, O_RDWR, ALICE)).isEqualTo(tooLong);
    assertThat(fs.mkdir(longName, 0755, ALICE)).isEqualTo(tooLong);
    assertThat(fs.symlink("t", longName, ALICE)).isEqualTo(tooLong);
    assertThat(fs.getattr(longName, a -> {})).isEqualTo(tooLong);
    assertThat(vfs.calls("create") + vfs.calls("mkdir") + vfs.calls("symlink")).isZero();
  }

  @Test
  void accessOpendirAndReleasedirAreFree() {
    assertThat(fs.access("/anything", 7)).isZero();
    long dh = fs.opendir("/");
    assertThat(dh).isPositive();
    assertThat(fs.releasedir("/", dh)).isZero();
    assertThat(vfs.calls.values().stream().mapToLong(java.util.concurrent.atomic.AtomicLong::get).sum()).isZero();
    assertThat(fs.stats().total()).isEqualTo(3);
  }

  @Test
  void releaseAllHandsLeftoverHandlesBack() {
    fs.create("/x", 0644, O_RDWR, ALICE);
    fs.open("/x", OpenFlags.O_RDONLY, ALICE);
    assertThat(vfs.openHandles()).isEqualTo(2);
    fs.releaseAll();
    assertThat(vfs.openHandles()).isZero();
    assertThat(fs.openFiles()).isZero();
  }

  /**
   * libfuse (without hard_remove) hides an unlinked open file: within the UNLINK request, getattr of a free
   * .fuse_hiddenXXXXXXXXYYYYYYYY (its probe), then rename(name, that).
   */
  @Test
  void renameOfAnOpenFileOntoAHiddenNameIsItsUnlinkAndTheNameStaysInMemory() {
    long fh = fs.create("/d.txt", 0644, O_RDWR, ALICE);
    assertThat(fs.write(null, fh, 0, ByteBuffer.wrap("abc".getBytes(StandardCharsets.UTF_8)))).isEqualTo(3);
    String hiddenName = "/.fuse_hidden0000000200000001";
    requests.next(); // the UNLINK of /d.txt
    assertThat(fs.getattr(hiddenName, a -> {})).isEqualTo(-Errno.ENOENT.value()); // libfuse's probe
    assertThat(fs.rename("/d.txt", hiddenName)).isZero();
    requests.next();
    assertThat(vfs.calls("rename")).isZero();
    assertThat(vfs.calls("unlink")).isEqualTo(1);
    assertThat(fs.getattr("/d.txt", a -> {})).isEqualTo(-Errno.ENOENT.value());
    FileAttr a = stat(hiddenName); // fstat(2) of the descriptor: libfuse asks by the hidden name
    assertThat(a.nlink()).isZero();
    assertThat(a.size()).isEqualTo(3);
    List<String> names = new ArrayList<>();
    assertThat(fs.readdir("/", fs.opendir("/"), 0, (n, at, o) -> names.add(n) && false)).isZero();
    assertThat(names).containsExactly(".", "..");
    assertThat(fs.hiddenFiles()).isEqualTo(1);
    assertThat(fs.release(hiddenName, fh)).isZero();
    assertThat(fs.unlink(hiddenName)).isZero(); // libfuse after the last release: no call into the VFS
    assertThat(vfs.calls("unlink")).isEqualTo(1);
    assertThat(fs.hiddenFiles()).isZero();
    assertThat(fs.getattr(hiddenName, x -> {})).isEqualTo(-Errno.ENOENT.value());
  }

  @Test
  void aHiddenLookingNameOfAClosedFileOrOfAUserIsAnOrdinaryFile() {
    String name = "/.fuse_hidden0000000300000001";
    long fh = fs.create("/closed", 0644, O_RDWR, ALICE);
    assertThat(fs.release("/closed", fh)).isZero();
    assertThat(fs.rename("/closed", name)).isZero(); // not open: an ordinary rename
    assertThat(vfs.calls("rename")).isEqualTo(1);
    assertThat(stat(name).nlink()).isEqualTo(1);
    assertThat(fs.unlink(name)).isZero();
    assertThat(vfs.calls("unlink")).isEqualTo(1);
    long mine = fs.create("/.fuse_hiddenmine", 0644, O_RDWR, ALICE);
    assertThat(fs.rename("/.fuse_hiddenmine", "/sub.fuse_hidden0000000300000002")).isZero(); // no libfuse pattern
    assertThat(vfs.calls("rename")).isEqualTo(2);
    assertThat(fs.release(null, mine)).isZero();
  }

  @Test
  void hiddenNamesFollowTheRenameOfTheirDirectory() {
    assertThat(fs.mkdir("/x", 0755, ALICE)).isZero();
    long fh = fs.create("/x/f", 0644, O_RDWR, ALICE);
    requests.next(); // the UNLINK of /x/f
    assertThat(fs.getattr("/x/.fuse_hidden0000000400000001", a -> {})).isEqualTo(-Errno.ENOENT.value());
    assertThat(fs.rename("/x/f", "/x/.fuse_hidden0000000400000001")).isZero();
    requests.next();
    assertThat(fs.rename("/x", "/y")).isZero(); // libfuse now names the hidden node /y/.fuse_hidden...
    assertThat(stat("/y/.fuse_hidden0000000400000001").nlink()).isZero();
    assertThat(fs.release("/y/.fuse_hidden0000000400000001", fh)).isZero();
    assertThat(fs.unlink("/y/.fuse_hidden0000000400000001")).isZero();
    assertThat(fs.hiddenFiles()).isZero();
    assertThat(vfs.calls("unlink")).isEqualTo(1);
  }

  /**
   * Issue 21, D6: a user's rename of an open file onto a name of libfuse's form is a rename, even right after the
   * kernel's LOOKUP of that name found it free: that LOOKUP was another request.
   */
  @Test
  void aUsersRenameOfAnOpenFileOntoAHiddenLookingNameMovesIt() {
    long fh = fs.create("/v.txt", 0644, O_RDWR, ALICE);
    assertThat(fs.write(null, fh, 0, ByteBuffer.wrap("data".getBytes(StandardCharsets.UTF_8)))).isEqualTo(4);
    assertThat(fs.flush(null, fh)).isZero();
    String name = "/.fuse_hidden00000000000000aa";
    requests.next(); // the kernel's LOOKUP of the new name
    assertThat(fs.getattr(name, a -> {})).isEqualTo(-Errno.ENOENT.value());
    requests.next(); // the RENAME
    assertThat(fs.rename("/v.txt", name)).isZero();
    requests.next();
    assertThat(vfs.calls("rename")).isEqualTo(1);
    assertThat(vfs.calls("unlink")).isZero();
    assertThat(fs.hiddenFiles()).isZero();
    assertThat(stat(name).nlink()).isEqualTo(1);
    assertThat(stat(name).size()).isEqualTo(4);
    List<String> names = new ArrayList<>();
    assertThat(fs.readdir("/", fs.opendir("/"), 0, (n, at, o) -> names.add(n) && false)).isZero();
    assertThat(names).containsExactly(".", "..", ".fuse_hidden00000000000000aa");
    assertThat(fs.release(name, fh)).isZero();
    assertThat(stat(name).size()).isEqualTo(4); // nothing unlinks it at the last release
  }

  /** Without a way to see libfuse's requests (a binding that sets no mark), a rename is always a rename. */
  @Test
  void withoutRequestMarksEveryRenameMovesTheFile() {
    FuseFilesystem plain = new FuseFilesystem(vfs, FuseOptions.defaults());
    long fh = plain.create("/o.txt", 0644, O_RDWR, ALICE);
    String name = "/.fuse_hidden0000000500000001";
    assertThat(plain.getattr(name, a -> {})).isEqualTo(-Errno.ENOENT.value());
    assertThat(plain.rename("/o.txt", name)).isZero();
    assertThat(vfs.calls("rename")).isEqualTo(1);
    assertThat(plain.hiddenFiles()).isZero();
    assertThat(plain.release(name, fh)).isZero();
    assertThat(plain.getattr(name, a -> {})).isZero();
  }

  /** A probe marks its own name only: a rename onto another hidden-form name in the same request is a rename. */
  @Test
  void aMarkIsForTheProbedNameOnly() {
    long fh = fs.create("/p.txt", 0644, O_RDWR, ALICE);
    requests.next();
    assertThat(fs.getattr("/.fuse_hidden0000000600000001", a -> {})).isEqualTo(-Errno.ENOENT.value());
    assertThat(fs.rename("/p.txt", "/.fuse_hidden0000000600000002")).isZero();
    assertThat(vfs.calls("rename")).isEqualTo(1);
    assertThat(fs.hiddenFiles()).isZero();
    assertThat(fs.release(null, fh)).isZero();
  }
}
