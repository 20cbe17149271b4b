package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.utf8;
import static io.ossgw.core.engine.TestGateway.writeFile;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ossgw.core.vfs.Errno;
import io.ossgw.core.vfs.FileHandle;
import io.ossgw.core.vfs.FsException;
import io.ossgw.core.vfs.OpenFlags;
import io.ossgw.core.vfs.SetAttr;
import io.ossgw.core.write.StagedFile;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Files past the largest OSS object (10,000 parts of 5 GB) are refused with EFBIG at the write or truncate, as a local
 * file system refuses a size over its maximum (POSIX truncate(2), write(2)), and nothing of the file changes: the
 * issue-12 case is {@code truncate(path, 999999999999999)}, which answered EIO from the spool.
 */
class FileSizeLimitTest extends EngineFixture {
  @Test
  void truncatePastTheLargestObjectIsEfbigAndChangesNothing() {
    writeFile(fs, "/t", utf8("keep"));
    gw.resetCounters();
    assertThatThrownBy(() -> fs.setattr("/t", SetAttr.size(999_999_999_999_999L), null, USER))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EFBIG));
    assertThat(fs.getattr("/t").size()).isEqualTo(4);
    assertThat(gw.objectBytes("t")).isEqualTo(utf8("keep"));
    assertThat(gw.count("PutObject") + gw.count("InitiateMultipartUpload")).isZero();
  }

  @Test
  void writeEndingPastTheLargestObjectIsEfbigAndTheFileStillUploads() {
    FileHandle h = fs.create("/w", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("head")));
    assertThatThrownBy(() -> fs.write(h, StagedFile.MAX_SIZE - 1, ByteBuffer.wrap(utf8("xy"))))
        .isInstanceOfSatisfying(FsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EFBIG));
    fs.release(h);
    assertThat(gw.objectBytes("w")).isEqualTo(utf8("head"));
  }
}
