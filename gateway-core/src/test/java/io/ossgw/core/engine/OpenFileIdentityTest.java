package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.readFile;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.VirtualFileSystem;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An open file stays the file it was opened as (SEMANTICS.md, unlink and rename): once it is unlinked or replaced by a
 * rename, its handles never read the file that took its name. Found by {@code src/test/posix/fsx_diff.py} over FUSE,
 * where such a read returned the new file's bytes or an early end of file.
 */
class OpenFileIdentityTest extends EngineFixture {
  private static final OpenFlags READ_ONLY_TRUNCATE = new OpenFlags(true, false, true, false);

  private int read(FileHandle h, long offset, int length) {
    return fs.read(h, offset, ByteBuffer.allocate(length));
  }

  @Test
  void aReadOnlyOpenReplacedByARenameFailsWithEioInsteadOfReadingTheNewFile() {
    writeFile(fs, "/a", utf8("the old file, never read through the handle"));
    writeFile(fs, "/b", utf8("NEW"));
    FileHandle h = fs.open("/a", OpenFlags.READ_ONLY, USER);
    fs.rename("/b", "/a");
    assertThatThrownBy(() -> read(h, 0, 64)).isInstanceOf(FsException.class)
        .extracting(e -> ((FsException) e).errno()).isEqualTo(Errno.EIO);
    assertThatThrownBy(() -> read(h, 10, 64)).isInstanceOf(FsException.class); // also past the new file's end
    fs.release(h);
    assertThat(readFile(fs, "/a")).isEqualTo(utf8("NEW"));
  }

  @Test
  void anOpenFileUnlinkedAndCreatedAgainNeverReadsTheNewFile() {
    writeFile(fs, "/c", utf8("first file"));
    FileHandle h = fs.open("/c", OpenFlags.READ_ONLY, USER);
    fs.unlink("/c");
    writeFile(fs, "/c", utf8("second file, longer than the first"));
    assertThatThrownBy(() -> read(h, 0, 64)).isInstanceOf(FsException.class)
        .extracting(e -> ((FsException) e).errno()).isEqualTo(Errno.EIO);
    fs.release(h);
    assertThat(readFile(fs, "/c")).isEqualTo(utf8("second file, longer than the first"));
  }

  @Test
  void bytesAnOpenFileStagedStayReadableAfterItIsReplaced() {
    writeFile(fs, "/d", utf8("0123456789"));
    writeFile(fs, "/e", utf8("other"));
    FileHandle h = fs.open("/d", OpenFlags.READ_WRITE, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("AB")));
    ByteBuffer dst = ByteBuffer.allocate(64);
    assertThat(fs.read(h, 0, dst)).isEqualTo(10); // the write staged the whole file
    fs.rename("/e", "/d");
    dst.clear();
    int n = fs.read(h, 0, dst);
    assertThat(new String(dst.array(), 0, n, StandardCharsets.UTF_8)).isEqualTo("AB23456789");
    fs.release(h);
    assertThat(readFile(fs, "/d")).isEqualTo(utf8("other"));
  }

  /**
   * A hole the file's own writes left is its content (zeros), not bytes to load from the object it was uploaded to:
   * reading it costs no request, and after an unlink (the object is gone) it still reads zeros. Found by
   * {@code fsx_diff.py}: a sparse file fsynced, then unlinked while open, read EIO in its holes. The hole here (64 MiB)
   * is past what a file may stage in memory, so the staging is in the spool.
   */
  @Test
  void holesOfAnUploadedFileReadAsZerosWithoutARequestAlsoAfterAnUnlink() {
    FileHandle h = fs.create("/sparse", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("head")));
    long tail = 64L << 20;
    fs.write(h, tail, ByteBuffer.wrap(utf8("tail")));
    fs.fsync(h, false);
    assertThat(gw.count("PutObject") + gw.count("CompleteMultipartUpload")).isOne();
    gw.resetCounters();
    ByteBuffer hole = ByteBuffer.allocate(4096);
    assertThat(fs.read(h, 32L << 20, hole)).isEqualTo(4096);
    assertThat(hole.array()).containsOnly(0);
    assertThat(gw.count("GetObject")).isZero();
    fs.unlink("/sparse");
    hole.clear();
    assertThat(fs.read(h, tail - 4096, hole)).isEqualTo(4096);
    assertThat(hole.array()).containsOnly(0);
    ByteBuffer end = ByteBuffer.allocate(64);
    assertThat(fs.read(h, tail, end)).isEqualTo(4);
    assertThat(new String(end.array(), 0, 4, StandardCharsets.UTF_8)).isEqualTo("tail");
    fs.release(h);
  }

  /** Reads {@code length} bytes at {@code offset} through the handle and compares them with the file's. */
  private void readsBack(FileHandle h, byte[] data, int offset, int length) {
    ByteBuffer dst = ByteBuffer.allocate(length);
    while (dst.hasRemaining() && fs.read(h, offset + dst.position(), dst) > 0) {
      // the engine may return fewer bytes than asked (one chunk)
    }
    assertThat(dst.position()).isEqualTo(length);
    assertThat(Arrays.copyOfRange(dst.array(), 0, length)).isEqualTo(Arrays.copyOfRange(data, offset, offset + length));
  }

  @Test
  void aFileRenamedWhileOpenReadsOnFromItsNewObject() {
    fs = gw.mount("direct_read_prefetch_chunks=0"); // no read-ahead: every range below is read after the renames
    byte[] data = new byte[3 << 20];
    new Random(7).nextBytes(data);
    writeFile(fs, "/r", data);
    FileHandle h = fs.open("/r", OpenFlags.READ_ONLY, USER);
    readsBack(h, data, 0, 4096);
    fs.rename("/r", "/renamed");
    readsBack(h, data, 2 << 20, 4096); // a range never read: the old key is gone, the reader follows the new one
    fs.mkdir("/dir", 0755, USER);
    fs.rename("/renamed", "/dir/r");
    FileHandle inDir = fs.open("/dir/r", OpenFlags.READ_ONLY, USER);
    readsBack(inDir, data, 100, 4096);
    fs.rename("/dir", "/dir2");
    readsBack(inDir, data, (3 << 20) - 5000, 5000);
    fs.release(inDir);
    fs.release(h);
  }

  @Test
  void aFileCopiedWithUploadPartCopyByARenameReadsOnDespiteItsNewEtag() {
    VirtualFileSystem small = gw.mount("singlepart_copy_limit=5", "multipart_size=5", "direct_read_prefetch_chunks=0");
    byte[] data = new byte[(6 << 20) + 123];
    new Random(8).nextBytes(data);
    writeFile(small, "/big", data);
    FileHandle h = small.open("/big", OpenFlags.READ_ONLY, USER);
    ByteBuffer first = ByteBuffer.allocate(1000);
    assertThat(small.read(h, 0, first)).isPositive();
    small.rename("/big", "/big2"); // UploadPartCopy: the copy's ETag is not the source's
    ByteBuffer dst = ByteBuffer.allocate(1000);
    int n = small.read(h, 6 << 20, dst);
    assertThat(n).isPositive();
    assertThat(Arrays.copyOfRange(dst.array(), 0, n)).isEqualTo(Arrays.copyOfRange(data, 6 << 20, (6 << 20) + n));
    small.release(h);
  }

  @Test
  void openReadOnlyWithTruncateEmptiesTheFileAsLinuxDoes() {
    writeFile(fs, "/t", utf8("old content"));
    FileHandle h = fs.open("/t", READ_ONLY_TRUNCATE, USER);
    assertThat(fs.getattr("/t").size()).isZero();
    fs.flush(h);
    fs.release(h);
    assertThat(gw.objectBytes("t")).isEmpty();
    assertThat(fs.getattr("/t").size()).isZero();
  }
}
