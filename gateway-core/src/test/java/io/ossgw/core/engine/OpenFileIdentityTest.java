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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
