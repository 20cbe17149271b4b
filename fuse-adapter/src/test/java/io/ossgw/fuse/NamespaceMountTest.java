package io.ossgw.fuse;

import static io.ossgw.fuse.Sh.q;
import static io.ossgw.fuse.Sh.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FsStats;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Names, directories and attributes through a real mount, checked with java.nio and shell tools. */
class NamespaceMountTest extends MountedTestBase {

  @Test
  void mkdirRmdirAndNotEmpty() throws Exception {
    Path d = mnt.resolve("d1/d2");
    Files.createDirectories(d);
    Files.writeString(d.resolve("f"), "x");
    assertThat(vfs.getattr("/d1/d2").isDirectory()).isTrue();
    assertThatThrownBy(() -> Files.delete(d)).isInstanceOf(DirectoryNotEmptyException.class);
    Sh.Result r = sh("rmdir " + q(d));
    assertThat(r.code()).isNotZero();
    assertThat(r.err()).contains("Directory not empty");
    Files.delete(d.resolve("f"));
    sh("rmdir " + q(d)).ok();
    assertThat(Files.exists(d)).isFalse();
    assertThatThrownBy(() -> Files.createDirectory(mnt.resolve("d1"))).isInstanceOf(FileSystemException.class);
  }

  @Test
  void renameFileAndDirectoryWithContents() throws Exception {
    Path a = mnt.resolve("ren-a.txt");
    Files.writeString(a, "A");
    Files.move(a, mnt.resolve("ren-b.txt"));
    assertThat(Files.exists(a)).isFalse();
    assertThat(Files.readString(mnt.resolve("ren-b.txt"))).isEqualTo("A");

    Files.createDirectories(mnt.resolve("rdir/sub"));
    Files.writeString(mnt.resolve("rdir/sub/x.txt"), "deep");
    sh("mv " + q(mnt.resolve("rdir")) + " " + q(mnt.resolve("rdir2"))).ok();
    assertThat(Files.exists(mnt.resolve("rdir"))).isFalse();
    assertThat(Files.readString(mnt.resolve("rdir2/sub/x.txt"))).isEqualTo("deep");
    // replacing an existing file
    Files.writeString(mnt.resolve("ren-c.txt"), "C");
    sh("mv " + q(mnt.resolve("ren-b.txt")) + " " + q(mnt.resolve("ren-c.txt"))).ok();
    assertThat(Files.readString(mnt.resolve("ren-c.txt"))).isEqualTo("A");
  }

  @Test
  void unlink() throws Exception {
    Path f = mnt.resolve("gone.txt");
    Files.writeString(f, "bye");
    Files.delete(f);
    assertThatThrownBy(() -> Files.readString(f)).isInstanceOf(NoSuchFileException.class);
    Files.writeString(f, "again");
    sh("rm " + q(f)).ok();
    assertThat(sh("ls " + q(mnt)).ok().out()).doesNotContain("gone.txt");
  }

  @Test
  void chmodChownAndTimesShowInStat() throws Exception {
    Path f = mnt.resolve("attrs.txt");
    Files.writeString(f, "a");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
    assertThat(sh("stat -c %a " + q(f)).ok().out().trim()).isEqualTo("640");
    sh("chown 1234:5678 " + q(f)).ok();
    assertThat(sh("stat -c %u:%g " + q(f)).ok().out().trim()).isEqualTo("1234:5678");
    sh("chown :99 " + q(f)).ok(); // uid passed as -1: unchanged
    assertThat(sh("stat -c %u:%g " + q(f)).ok().out().trim()).isEqualTo("1234:99");
    assertThat(Files.getAttribute(f, "unix:uid")).isEqualTo(1234);

    Instant t = Instant.parse("2001-02-03T04:05:06.123456789Z");
    Files.setLastModifiedTime(f, FileTime.from(t));
    assertThat(vfs.getattr("/attrs.txt").mtime()).isEqualTo(t);
    assertThat(Files.getLastModifiedTime(f).toInstant()).isEqualTo(t);
    // only atime (UTIME_OMIT for mtime): mtime must stay
    sh("touch -a -d '2010-01-01 00:00:00 UTC' " + q(f)).ok();
    FileAttr a = vfs.getattr("/attrs.txt");
    assertThat(a.atime()).isEqualTo(Instant.parse("2010-01-01T00:00:00Z"));
    assertThat(a.mtime()).isEqualTo(t);
    assertThat(sh("stat -c %X:%Y " + q(f)).ok().out().trim()).isEqualTo("1262304000:" + t.getEpochSecond());
    // touch without a time: UTIME_NOW for both
    Instant before = Instant.now().minusSeconds(2);
    sh("touch " + q(f)).ok();
    assertThat(vfs.getattr("/attrs.txt").mtime()).isAfter(before);
  }

  @Test
  void symlinkAndReadlink() throws Exception {
    Path link = mnt.resolve("link");
    Files.createSymbolicLink(link, Path.of("../some where/target ü"));
    assertThat(Files.readSymbolicLink(link)).isEqualTo(Path.of("../some where/target ü"));
    assertThat(Files.isSymbolicLink(link)).isTrue();
    sh("ln -s /abs/target " + q(mnt.resolve("link2"))).ok();
    assertThat(sh("readlink " + q(mnt.resolve("link2"))).ok().out().trim()).isEqualTo("/abs/target");
    Files.writeString(mnt.resolve("real.txt"), "through the link");
    Files.createSymbolicLink(mnt.resolve("link3"), Path.of("real.txt"));
    assertThat(Files.readString(mnt.resolve("link3"))).isEqualTo("through the link");
  }

  @Test
  void statfsReportsTheVfsFigures() {
    FsStats s = vfs.statfs();
    String out = sh("stat -f -c '%S %b %f %a %c %d %l' " + q(mnt)).ok().out().trim();
    assertThat(out).isEqualTo(s.blockSize() + " " + s.totalBlocks() + " " + s.freeBlocks() + " " + s.freeBlocks()
        + " " + s.totalFiles() + " " + s.freeFiles() + " " + s.maxNameLength());
    assertThat(sh("df -P " + q(mnt)).ok().out()).contains("oss:test");
  }

  @Test
  void namesWithSpacesUtf8PercentAndPlus() throws Exception {
    List<String> names = List.of("with space.txt", "ünïcödé-文件-😀.txt", "100% sure.txt", "a+b+c.txt", "%2F+%20");
    for (String n : names) {
      Files.writeString(mnt.resolve(n), n);
    }
    for (String n : names) {
      assertThat(Files.readString(mnt.resolve(n))).isEqualTo(n);
      assertThat(vfs.getattr("/" + n).size()).isEqualTo(n.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    }
    try (Stream<Path> s = Files.list(mnt)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsAll(names);
    }
    assertThat(sh("ls -1 " + q(mnt)).ok().out().lines()).containsAll(names);
  }

  @Test
  void namesOver255BytesFailWithEnametoolong() throws Exception {
    long createErrors = m.stats().errors(FuseOp.CREATE) + m.stats().errors(FuseOp.GETATTR);
    String ascii300 = "a".repeat(300);
    String utf256 = "é".repeat(128); // 128 chars, 256 bytes
    for (String n : List.of(ascii300, utf256)) {
      assertThatThrownBy(() -> Files.writeString(mnt.resolve(n), "x"))
          .isInstanceOf(FileSystemException.class)
          .hasMessageContaining("File name too long");
      assertThat(sh("mkdir " + q(mnt.resolve(n))).err()).contains("File name too long");
    }
    String ok255 = "b".repeat(255);
    Files.writeString(mnt.resolve(ok255), "fits");
    assertThat(Files.readString(mnt.resolve(ok255))).isEqualTo("fits");
    // The kernel's FUSE limit is 1024 bytes (FUSE_NAME_MAX), not 255: these lookups reach the adapter, which refuses.
    assertThat(m.stats().errors(FuseOp.CREATE) + m.stats().errors(FuseOp.GETATTR)).isGreaterThan(createErrors);
  }

  @Test
  void runtimeExceptionBelowIsInputOutputErrorNotNoSuchFile() throws Exception {
    long unexpected = m.stats().unexpectedErrors();
    vfs.explodeOn = "boom";
    try {
      Sh.Result r = sh("stat " + q(mnt.resolve("boom.txt")));
      assertThat(r.code()).isNotZero();
      assertThat(r.err()).contains("Input/output error").doesNotContain("No such file");
      assertThatThrownBy(() -> Files.readAttributes(mnt.resolve("boom2"), "unix:*"))
          .isInstanceOf(FileSystemException.class)
          .isNotInstanceOf(NoSuchFileException.class)
          .hasMessageContaining("Input/output error");
    } finally {
      vfs.explodeOn = null;
    }
    assertThat(m.stats().unexpectedErrors()).isGreaterThanOrEqualTo(unexpected + 2);
    // not cached as a negative entry: the name works once the backend does
    Files.writeString(mnt.resolve("boom.txt"), "fine now");
    assertThat(Files.readString(mnt.resolve("boom.txt"))).isEqualTo("fine now");
  }

  @Test
  void unimplementedOperationsAreRefusedByLibfuse() throws Exception {
    Path f = mnt.resolve("plain.txt");
    Files.writeString(f, "p");
    UserDefinedFileAttributeView xattrs = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class);
    assertThatThrownBy(xattrs::list).isInstanceOf(FileSystemException.class)
        .hasMessageContaining("Operation not supported");
    assertThatThrownBy(() -> Files.createLink(mnt.resolve("hard"), f)).isInstanceOf(FileSystemException.class);
    assertThat(sh("mkfifo " + q(mnt.resolve("fifo"))).code()).isNotZero();
    assertThat(Files.exists(mnt.resolve("hard"))).isFalse();
  }

  @Test
  void lsShowsTypesAndInodes() {
    sh("mkdir " + q(mnt.resolve("lsdir")) + " && echo hi > " + q(mnt.resolve("lsdir/f")) + " && ln -s f "
        + q(mnt.resolve("lsdir/l"))).ok();
    String out = sh("ls -li " + q(mnt.resolve("lsdir"))).ok().out();
    long ino = vfs.getattr("/lsdir/f").ino();
    assertThat(out.lines().filter(l -> l.endsWith(" f")).findFirst().orElseThrow()).startsWith(ino + " -rw");
    assertThat(out).contains("l -> f");
    // d_type from the listing: find -type works without stat
    assertThat(sh("find " + q(mnt.resolve("lsdir")) + " -type l").ok().out().trim()).endsWith("/lsdir/l");
  }

  /**
   * Names that are not UTF-8 are EINVAL for every call (they were decoded with U+FFFD replacing the bad bytes, so
   * col\xff.txt and col\xfe.txt were one file); a real U+FFFD (EF BF BD) is an ordinary name.
   */
  @Test
  void namesThatAreNotUtf8AreEinvalAndARealReplacementCharacterWorks() throws Exception {
    String script = String.join("\n",
        "import errno, os, sys",
        "d = os.fsencode(sys.argv[1]) + b'/utf8'",
        "os.mkdir(d)",
        "for bad in (b'col\\xff.txt', b'col\\xfe.txt', b'x\\xc3', b'o\\xc0\\xaf'):",
        "    for op in (lambda p: os.close(os.open(p, os.O_CREAT | os.O_WRONLY, 0o644)), os.mkdir, os.stat):",
        "        try:",
        "            op(d + b'/' + bad)",
        "            print('accepted', bad)",
        "        except OSError as e:",
        "            print(errno.errorcode[e.errno])",
        "os.close(os.open(d + '/col\\ufffd.txt'.encode(), os.O_CREAT | os.O_WRONLY, 0o644))",
        "print(os.stat(d + '/col\\ufffd.txt'.encode()).st_size)",
        "try:",
        "    os.symlink(b'target\\xff', d + b'/badlink')",
        "    print('accepted a target that is not UTF-8')",
        "except OSError as e:",
        "    print(errno.errorcode[e.errno])",
        "os.symlink('real\\ufffd'.encode(), d + b'/link')",
        "print(os.readlink(d + b'/link') == 'real\\ufffd'.encode())");
    Sh.Result r = Sh.run(List.of("python3", "-c", script, mnt.toString()));
    assertThat(r.out()).as(r.err()).isEqualTo("EINVAL\n".repeat(12) + "0\nEINVAL\nTrue\n");
    assertThat(vfs.getattr("/utf8/col\uFFFD.txt").isRegular()).isTrue();
    assertThat(vfs.readdir("/utf8").entries()).extracting(e -> e.name()).containsExactlyInAnyOrder("col\uFFFD.txt", "link");
  }
}
