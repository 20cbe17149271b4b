package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.aliyun.oss.model.ObjectMetadata;
import io.ossgw.core.vfs.DirEntry;
import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileAttr;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FileType;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.vfs.VirtualFileSystem;
import io.ossgw.testsupport.Slowdown;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The engine's file operations against the OSS emulator through the real SDK: contents, metadata and request costs. */
class OssFileSystemTest extends EngineFixture {
  private static FsException fsError(Runnable r) {
    try {
      r.run();
    } catch (FsException e) {
      return e;
    }
    throw new AssertionError("expected an FsException");
  }

  @Test
  void fileIsOnePlainObjectWithOssfsMetadata() {
    writeFile(fs, "/hello.txt", utf8("hello world"));
    assertThat(gw.objectBytes("hello.txt")).isEqualTo(utf8("hello world"));
    ObjectMetadata md = gw.sdk.getObjectMetadata(BUCKET, "hello.txt");
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(0100644)).containsEntry("uid", "1000")
        .containsKey("mtime").containsKey("ctime").containsKey("atime");
    assertThat(md.getContentType()).isEqualTo("application/octet-stream");
    assertThat(readFile(fs, "/hello.txt")).isEqualTo(utf8("hello world"));
    assertThat(fs.getattr("/hello.txt").size()).isEqualTo(11);
  }

  @Test
  void createDoesNotPutUntilTheSecondCloseAndEveryLaterCloseIsDurable() {
    gw.resetCounters();
    FileHandle h = fs.create("/f", 0644, OpenFlags.READ_WRITE, false, USER);
    assertThat(gw.count("PutObject")).isZero();
    assertThat(fs.getattr("/f").size()).isZero(); // visible before any upload
    fs.flush(h); // the shell's dup2+close of `>` redirection: the first close of a bare new file is deferred
    assertThat(gw.count("PutObject")).isZero();
    assertThat(fs.getattr("/f").size()).isZero(); // still shown by the gateway
    fs.write(h, 0, ByteBuffer.wrap(utf8("hi\n")));
    fs.flush(h); // the last close(2): the bytes are in OSS when it returns
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.objectBytes("f")).isEqualTo(utf8("hi\n"));
    fs.release(h); // nothing left to upload
    assertThat(gw.count("PutObject")).isEqualTo(1);
  }

  @Test
  void onlyTheFirstCloseOfABareNewFileIsDeferred() {
    gw.resetCounters();
    FileHandle h = fs.create("/g", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.flush(h); // deferred
    fs.flush(h); // a second close of the still empty file uploads before it returns
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.objectBytes("g")).isEmpty();
    FileHandle c = fs.create("/c", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.setattr("/c", SetAttr.mode(0600), c, USER);
    fs.flush(c); // an attribute was set: not bare, uploaded at this close with its mode
    assertThat(gw.count("PutObject")).isEqualTo(2);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "c").getUserMetadata()).containsEntry("mode", Integer.toString(0100600));
    FileHandle e = fs.create("/e", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.fsync(e, false); // fsync never defers
    assertThat(gw.count("PutObject")).isEqualTo(3);
    for (FileHandle x : new FileHandle[] {h, c, e}) {
      fs.release(x);
    }
    assertThat(gw.count("PutObject")).isEqualTo(3);
  }

  @Test
  void emptyFileIsOneZeroBytePut() {
    gw.resetCounters();
    FileHandle h = fs.create("/empty", 0600, OpenFlags.READ_WRITE, false, USER);
    fs.flush(h);
    fs.release(h);
    assertThat(gw.count("PutObject")).isEqualTo(1);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "empty").getContentLength()).isZero();
    assertThat(fs.getattr("/empty").mode()).isEqualTo(0600);
  }

  @Test
  void largeSequentialWriteStreamsPartsBeforeClose() {
    VirtualFileSystem small = gw.mount("multipart_size=5", "parallel_count=3");
    byte[] data = new byte[13 * 1024 * 1024 + 12345];
    new Random(1).nextBytes(data);
    gw.resetCounters();
    FileHandle h = small.create("/big.bin", 0644, OpenFlags.READ_WRITE, false, USER);
    TestGateway.writeAt(small, h, 0, data);
    // Parts go up on the upload pool while writing continues: wait (bounded) for the first one to complete, still
    // before flush/close, instead of asserting on a race.
    assertThat(awaitCount("UploadPart", 1)).as("parts uploaded while writing").isGreaterThanOrEqualTo(1);
    small.flush(h);
    small.release(h);
    assertThat(gw.count("CompleteMultipartUpload")).isEqualTo(1);
    assertThat(gw.count("UploadPart")).isEqualTo(3);
    assertThat(gw.count("PutObject")).isZero();
    assertThat(gw.objectBytes("big.bin")).isEqualTo(data);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "big.bin").getUserMetadata()).containsKey("mode");
  }

  @Test
  void timesSetWhileStreamingKeepTheStreamAndAreWrittenByOneSelfCopy() {
    VirtualFileSystem small = gw.mount("multipart_size=5", "parallel_count=3");
    byte[] data = new byte[13 * 1024 * 1024 + 7];
    new Random(5).nextBytes(data);
    gw.resetCounters();
    FileHandle h = small.create("/stamped.bin", 0644, OpenFlags.READ_WRITE, false, USER);
    TestGateway.writeAt(small, h, 0, data);
    Instant stamp = Instant.parse("2001-02-03T04:05:06Z");
    small.setattr("/stamped.bin", SetAttr.times(stamp, stamp), h, USER); // smbd's utimensat before close
    small.flush(h);
    small.release(h);
    assertThat(gw.count("UploadPart")).as("every byte sent once").isEqualTo(3);
    assertThat(gw.count("CompleteMultipartUpload")).isEqualTo(1);
    assertThat(gw.count("CopyObject")).isEqualTo(1);
    assertThat(gw.objectBytes("stamped.bin")).isEqualTo(data);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "stamped.bin").getUserMetadata())
        .containsEntry("mtime", Long.toString(stamp.getEpochSecond()));
    assertThat(gw.mount().getattr("/stamped.bin").mtime()).isEqualTo(stamp);
  }

  @Test
  void overwriteInTheMiddleKeepsTheRest() {
    VirtualFileSystem small = gw.mount("multipart_size=5");
    byte[] data = new byte[12 * 1024 * 1024];
    new Random(2).nextBytes(data);
    writeFile(small, "/m.bin", data);
    VirtualFileSystem other = gw.mount("multipart_size=5"); // cold: must load unchanged bytes from OSS
    FileHandle h = other.open("/m.bin", OpenFlags.READ_WRITE, USER);
    byte[] patch = utf8("PATCHED-IN-THE-MIDDLE");
    other.write(h, 7_000_000, ByteBuffer.wrap(patch));
    other.flush(h);
    other.release(h);
    System.arraycopy(patch, 0, data, 7_000_000, patch.length);
    assertThat(gw.objectBytes("m.bin")).isEqualTo(data);
  }

  @Test
  void truncateShrinksAndExtendsWithZeros() {
    writeFile(fs, "/t", utf8("0123456789"));
    fs.setattr("/t", SetAttr.size(4), null, USER);
    assertThat(gw.objectBytes("t")).isEqualTo(utf8("0123"));
    fs.setattr("/t", SetAttr.size(8), null, USER);
    assertThat(gw.objectBytes("t")).isEqualTo(new byte[] {'0', '1', '2', '3', 0, 0, 0, 0});
    assertThat(fs.getattr("/t").size()).isEqualTo(8);
  }

  @Test
  void openWithTruncateReplacesContent() {
    writeFile(fs, "/o", utf8("old content"));
    FileHandle h = fs.open("/o", new OpenFlags(false, true, true, false), USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("new")));
    fs.release(h);
    assertThat(gw.objectBytes("o")).isEqualTo(utf8("new"));
  }

  @Test
  void readSeesUnflushedWritesOfAnotherHandle() {
    writeFile(fs, "/shared", utf8("aaaaaaaaaa"));
    FileHandle w = fs.open("/shared", OpenFlags.READ_WRITE, USER);
    fs.write(w, 2, ByteBuffer.wrap(utf8("BB")));
    assertThat(readFile(fs, "/shared")).isEqualTo(utf8("aaBBaaaaaa"));
    fs.release(w);
  }

  @Test
  void chmodChownUtimensRewriteMetadataByOneSelfCopy() {
    writeFile(fs, "/c", utf8("x"));
    gw.resetCounters();
    Instant mtime = Instant.parse("2020-01-02T03:04:05Z");
    fs.setattr("/c", SetAttr.mode(0600), null, USER);
    fs.setattr("/c", SetAttr.owner(7, 8), null, USER);
    fs.setattr("/c", SetAttr.times(mtime, mtime), null, USER);
    assertThat(gw.count("CopyObject")).isEqualTo(3);
    assertThat(gw.count("HeadObject")).isZero();
    ObjectMetadata md = gw.sdk.getObjectMetadata(BUCKET, "c");
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(0100600)).containsEntry("uid", "7")
        .containsEntry("gid", "8").containsEntry("mtime", "1577934245");
    VirtualFileSystem cold = gw.mount();
    FileAttr a = cold.getattr("/c");
    assertThat(a.mode()).isEqualTo(0600);
    assertThat(a.uid()).isEqualTo(7);
    assertThat(a.mtime()).isEqualTo(mtime);
    assertThat(gw.objectBytes("c")).isEqualTo(utf8("x"));
  }

  /**
   * NFS's order for {@code tar x} / {@code cp -a}: the data is committed (uploaded) while the file stays open, then
   * SETATTRs by path change its mode and times. Each is one self-copy, and the release that follows has nothing left
   * to upload: the bytes go to OSS once, not again for attributes already written.
   */
  @Test
  void setattrsByPathAfterAnUploadAreSelfCopiesAndTheReleaseUploadsNothing() {
    FileHandle h = fs.create("/late", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("committed")));
    fs.flush(h); // NFS COMMIT
    gw.resetCounters();
    Instant mtime = Instant.parse("2021-03-04T05:06:07Z");
    fs.setattr("/late", SetAttr.mode(0640), null, USER);
    fs.setattr("/late", SetAttr.times(mtime, mtime), null, USER);
    fs.release(h);
    assertThat(gw.count("PutObject")).as("no second upload of the data").isZero();
    assertThat(gw.count("CopyObject")).isEqualTo(2);
    ObjectMetadata md = gw.sdk.getObjectMetadata(BUCKET, "late");
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(0100640))
        .containsEntry("mtime", Long.toString(mtime.getEpochSecond()));
    assertThat(gw.objectBytes("late")).isEqualTo(utf8("committed"));
  }

  @Test
  void mkdirWritesAMarkerAndRmdirRefusesNonEmpty() {
    fs.mkdir("/d", 0755, USER);
    ObjectMetadata md = gw.sdk.getObjectMetadata(BUCKET, "d/");
    assertThat(md.getContentType()).isEqualTo("application/x-directory");
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(040755));
    writeFile(fs, "/d/x", utf8("1"));
    assertThat(fsError(() -> fs.rmdir("/d")).errno()).isEqualTo(Errno.ENOTEMPTY);
    assertThat(fsError(() -> fs.mkdir("/d", 0755, USER)).errno()).isEqualTo(Errno.EEXIST);
    fs.unlink("/d/x");
    fs.rmdir("/d");
    assertThat(gw.sdk.doesObjectExist(BUCKET, "d/")).isFalse();
    assertThat(fsError(() -> fs.getattr("/d")).errno()).isEqualTo(Errno.ENOENT);
  }

  @Test
  void renameFileMovesBytesAndMetadata() {
    writeFile(fs, "/a", utf8("content"));
    fs.setattr("/a", SetAttr.mode(0640), null, USER);
    fs.rename("/a", "/b");
    assertThat(gw.sdk.doesObjectExist(BUCKET, "a")).isFalse();
    assertThat(gw.objectBytes("b")).isEqualTo(utf8("content"));
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "b").getUserMetadata()).containsEntry("mode", Integer.toString(0100640));
    assertThat(fsError(() -> fs.getattr("/a")).errno()).isEqualTo(Errno.ENOENT);
    assertThat(fs.getattr("/b").mode()).isEqualTo(0640);
  }

  @Test
  void renameDirectoryMovesEveryObject() {
    fs.mkdir("/src", 0755, USER);
    fs.mkdir("/src/sub", 0755, USER);
    for (int i = 0; i < 60; i++) {
      writeFile(fs, "/src/f" + i, utf8("file " + i));
    }
    writeFile(fs, "/src/sub/deep", utf8("deep"));
    fs.rename("/src", "/dst");
    assertThat(gw.sdk.listObjectsV2(BUCKET, "src/").getKeyCount()).isZero();
    assertThat(gw.objectBytes("dst/f59")).isEqualTo(utf8("file 59"));
    assertThat(gw.objectBytes("dst/sub/deep")).isEqualTo(utf8("deep"));
    assertThat(gw.sdk.doesObjectExist(BUCKET, "dst/")).isTrue();
    assertThat(fs.readdir("/dst").entries()).hasSize(61);
    assertThat(fsError(() -> fs.getattr("/src")).errno()).isEqualTo(Errno.ENOENT);
    assertThat(readFile(gw.mount(), "/dst/sub/deep")).isEqualTo(utf8("deep"));
  }

  @Test
  void renameIntoItselfOrOntoNonEmptyDirectoryIsRefused() {
    fs.mkdir("/p", 0755, USER);
    fs.mkdir("/q", 0755, USER);
    writeFile(fs, "/q/x", utf8("x"));
    assertThat(fsError(() -> fs.rename("/p", "/p/inner")).errno()).isEqualTo(Errno.EINVAL);
    assertThat(fsError(() -> fs.rename("/p", "/q")).errno()).isEqualTo(Errno.ENOTEMPTY);
    writeFile(fs, "/file", utf8("f"));
    assertThat(fsError(() -> fs.rename("/file", "/p")).errno()).isEqualTo(Errno.EISDIR);
  }

  @Test
  void symlinksRoundTripInBothForms() {
    fs.symlink("target/file.txt", "/link", USER);
    assertThat(gw.objectBytes("link")).isEqualTo(utf8("target/file.txt"));
    VirtualFileSystem meta = gw.mount("symlink_in_meta");
    meta.symlink("../other dir/ü", "/link2", USER);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "link2").getContentLength()).isZero();
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "link2").getUserMetadata().get("symlink-target")).startsWith("header:");
    VirtualFileSystem cold = gw.mount();
    assertThat(cold.getattr("/link").type()).isEqualTo(FileType.SYMLINK);
    assertThat(cold.readlink("/link")).isEqualTo("target/file.txt");
    assertThat(cold.getattr("/link2").type()).isEqualTo(FileType.SYMLINK);
    assertThat(cold.readlink("/link2")).isEqualTo("../other dir/ü");
  }

  @Test
  void foreignObjectsAndImplicitDirectoriesLookRight() {
    gw.sdk.putObject(BUCKET, "plain.bin", new ByteArrayInputStream(utf8("abc")));
    gw.sdk.putObject(BUCKET, "a/b/c.txt", new ByteArrayInputStream(utf8("deep")));
    gw.sdk.putObject(BUCKET, "marker/", new ByteArrayInputStream(new byte[0]));
    VirtualFileSystem cold = gw.mount();
    assertThat(cold.getattr("/plain.bin").mode()).isEqualTo(0640);
    assertThat(cold.getattr("/a").type()).isEqualTo(FileType.DIRECTORY);
    assertThat(cold.getattr("/a").mode()).isEqualTo(0750);
    assertThat(cold.getattr("/a/b").isDirectory()).isTrue();
    assertThat(cold.getattr("/marker").isDirectory()).isTrue();
    List<String> names = cold.readdir("/").entries().stream().map(DirEntry::name).toList();
    assertThat(names).containsExactly("a", "marker", "plain.bin");
    assertThat(readFile(cold, "/a/b/c.txt")).isEqualTo(utf8("deep"));
  }

  @Test
  void lookupMissCostsOneHeadAndOneListThenNothing() {
    gw.resetCounters();
    assertThat(fsError(() -> fs.getattr("/nope")).errno()).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("HeadObject")).isEqualTo(1);
    assertThat(gw.count("ListObjectsV2")).isEqualTo(1);
    assertThat(fsError(() -> fs.getattr("/nope")).errno()).isEqualTo(Errno.ENOENT);
    assertThat(gw.count("HeadObject") + gw.count("ListObjectsV2")).isEqualTo(2);
  }

  @Test
  void namesWithSpacesUtf8PercentAndPlusMapToExactKeys() {
    String[] names = {"with space.txt", "ünïcödé-文件.txt", "100%.txt", "a+b.txt"};
    for (String n : names) {
      writeFile(fs, "/" + n, utf8(n));
    }
    for (String n : names) {
      assertThat(gw.objectBytes(n)).isEqualTo(utf8(n));
    }
    VirtualFileSystem cold = gw.mount();
    assertThat(cold.readdir("/").entries().stream().map(DirEntry::name)).containsExactlyInAnyOrder(names);
  }

  @Test
  void tooLongNamesAreRefused() {
    assertThat(fsError(() -> fs.create("/" + "x".repeat(256), 0644, OpenFlags.READ_WRITE, false, USER)).errno())
        .isEqualTo(Errno.ENAMETOOLONG);
  }

  @Test
  void serverErrorsAreEioNeverEnoent() {
    gw.emu.faults().failWith(503, "SlowDown", 1.0, java.util.Set.of("HeadObject", "ListObjectsV2"));
    assertThat(fsError(() -> fs.getattr("/whatever")).errno()).isEqualTo(Errno.EIO);
    gw.emu.faults().clear();
    assertThat(fsError(() -> fs.getattr("/whatever")).errno()).isEqualTo(Errno.ENOENT);
  }

  @Test
  void transientFailuresAreRetried() {
    writeFile(fs, "/r", utf8("retry me"));
    gw.emu.faults().failNext(1, 500, "InternalError", java.util.Set.of("GetObject"));
    assertThat(readFile(gw.mount(), "/r")).isEqualTo(utf8("retry me"));
  }

  @Test
  void externalChangeIsSeenOnTheNextOpen() {
    writeFile(fs, "/ext", utf8("version one"));
    assertThat(readFile(fs, "/ext")).isEqualTo(utf8("version one"));
    gw.sdk.putObject(BUCKET, "ext", new ByteArrayInputStream(utf8("version two, longer")));
    assertThat(readFile(fs, "/ext")).startsWith(utf8("version two"));
  }

  /** The refused If-Match GET is followed by one GET of the new version whose headers replace the attributes: no HEAD. */
  @Test
  void externalChangeCostsTheRefusedGetAndOneGetNoHead() {
    writeFile(fs, "/ext2", utf8("version one"));
    ObjectMetadata m = new ObjectMetadata();
    m.setUserMetadata(java.util.Map.of("mode", Integer.toString(0100600)));
    gw.sdk.putObject(BUCKET, "ext2", new ByteArrayInputStream(utf8("version two, longer")), m);
    gw.resetCounters();
    FileHandle h = fs.open("/ext2", OpenFlags.READ_ONLY, USER);
    ByteBuffer buf = ByteBuffer.allocate(128 * 1024);
    int n = fs.read(h, 0, buf);
    fs.release(h);
    assertThat(new String(buf.array(), 0, n, java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("version two, longer");
    assertThat(gw.count("HeadObject")).isZero();
    assertThat(gw.count("GetObject")).isEqualTo(2);
    assertThat(fs.getattr("/ext2").size()).isEqualTo(19);
    assertThat(fs.getattr("/ext2").mode()).isEqualTo(0600);
    assertThat(gw.count("HeadObject")).isZero();
  }

  @Test
  void subPathMountOfAMissingPrefixWorks() {
    VirtualFileSystem sub = gw.mountAt("/no/such/prefix");
    assertThat(sub.readdir("/").entries()).isEmpty();
    writeFile(sub, "/x.txt", utf8("under prefix"));
    sub.mkdir("/d", 0755, USER);
    assertThat(gw.objectBytes("no/such/prefix/x.txt")).isEqualTo(utf8("under prefix"));
    assertThat(gw.sdk.doesObjectExist(BUCKET, "no/such/prefix/d/")).isTrue();
  }

  @Test
  void unlinkOfAnOpenFileDiscardsItsLaterWrites() {
    FileHandle h = fs.create("/gone", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("data")));
    fs.unlink("/gone");
    fs.release(h);
    assertThat(gw.sdk.doesObjectExist(BUCKET, "gone")).isFalse();
    assertThatThrownBy(() -> fs.getattr("/gone")).isInstanceOf(FsException.class);
  }

  /**
   * Polls the emulator's counter of {@code op} until it reaches {@code min} or 30 s of a quiet machine (scaled) pass;
   * returns the last count.
   */
  private long awaitCount(String op, long min) {
    try {
      Slowdown.waitUntil(() -> gw.count(op) >= min, Duration.ofSeconds(30));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return gw.count(op);
  }
}
