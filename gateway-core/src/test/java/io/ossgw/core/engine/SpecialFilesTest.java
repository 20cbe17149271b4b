package io.ossgw.core.engine;

import static io.ossgw.core.engine.TestGateway.BUCKET;
import static io.ossgw.core.engine.TestGateway.USER;
import static io.ossgw.core.engine.TestGateway.utf8;
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
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * mknod of fifos, devices and sockets in ossfs's on-bucket format (zero-byte object, type bits in x-oss-meta-mode,
 * x-oss-meta-rdev for devices), read back by a cold engine and from objects written the way ossfs writes them; and
 * fstat of an open file after unlink (answered from the handle, nlink 0).
 */
class SpecialFilesTest extends EngineFixture {
  /** Linux makedev(1, 3): /dev/null. */
  private static final long DEV_NULL = (1 << 8) | 3;

  @Test
  void mknodWritesOneZeroByteObjectWithTypeBitsAndRdev() {
    gw.resetCounters();
    FileAttr fifo = fs.mknod("/fifo", FileType.FIFO, 0640, 0, USER);
    assertThat(gw.count("PutObject")).isEqualTo(1);
    fs.mknod("/null", FileType.CHARACTER_DEVICE, 0666, DEV_NULL, USER);
    fs.mknod("/blk", FileType.BLOCK_DEVICE, 0660, (8 << 8) | 1, USER);
    fs.mknod("/sock", FileType.SOCKET, 0755, 0, USER);

    assertThat(fifo.stMode()).isEqualTo(0010640);
    ObjectMetadata md = gw.sdk.getObjectMetadata(BUCKET, "fifo");
    assertThat(md.getContentLength()).isZero();
    assertThat(md.getUserMetadata()).containsEntry("mode", Integer.toString(0010640)).containsEntry("uid", "1000")
        .doesNotContainKey("rdev");
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "null").getUserMetadata())
        .containsEntry("mode", Integer.toString(0020666)).containsEntry("rdev", Long.toString(DEV_NULL));
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "blk").getUserMetadata())
        .containsEntry("mode", Integer.toString(0060660)).containsEntry("rdev", Long.toString((8 << 8) | 1));
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "sock").getUserMetadata())
        .containsEntry("mode", Integer.toString(0140755));

    gw.closeEngines();
    VirtualFileSystem cold = gw.mount();
    FileAttr dev = cold.getattr("/null");
    assertThat(dev.type()).isEqualTo(FileType.CHARACTER_DEVICE);
    assertThat(dev.rdev()).isEqualTo(DEV_NULL);
    assertThat(dev.stMode()).isEqualTo(0020666);
    assertThat(cold.getattr("/blk").type()).isEqualTo(FileType.BLOCK_DEVICE);
    Map<String, FileType> types = cold.readdir("/").entries().stream()
        .collect(Collectors.toMap(DirEntry::name, e -> e.attr().type()));
    assertThat(types).containsEntry("fifo", FileType.FIFO).containsEntry("null", FileType.CHARACTER_DEVICE)
        .containsEntry("blk", FileType.BLOCK_DEVICE).containsEntry("sock", FileType.SOCKET);
  }

  @Test
  void ossfsWrittenSpecialFilesReadBack() {
    // what ossfs 1.91's create_file_object writes for mkfifo/mknod: mode only, no rdev
    putOssfsStyle("of-fifo", 0010644);
    putOssfsStyle("of-chr", 0020600);
    VirtualFileSystem cold = gw.mount();
    assertThat(cold.getattr("/of-fifo").type()).isEqualTo(FileType.FIFO);
    assertThat(cold.getattr("/of-fifo").mode()).isEqualTo(0644);
    FileAttr chr = cold.getattr("/of-chr");
    assertThat(chr.type()).isEqualTo(FileType.CHARACTER_DEVICE);
    assertThat(chr.rdev()).isZero();
  }

  @Test
  void chmodAndRenameKeepTheDeviceNumber() {
    fs.mknod("/d", FileType.CHARACTER_DEVICE, 0600, DEV_NULL, USER);
    assertThat(fs.setattr("/d", SetAttr.mode(0644), null, USER).rdev()).isEqualTo(DEV_NULL);
    fs.rename("/d", "/e");
    assertThat(fs.getattr("/e").rdev()).isEqualTo(DEV_NULL);
    assertThat(gw.sdk.getObjectMetadata(BUCKET, "e").getUserMetadata())
        .containsEntry("mode", Integer.toString(0020644)).containsEntry("rdev", Long.toString(DEV_NULL));
  }

  @Test
  void refusals() {
    fs.mknod("/f", FileType.FIFO, 0644, 0, USER);
    assertThat(errno(() -> fs.mknod("/f", FileType.SOCKET, 0644, 0, USER))).isEqualTo(Errno.EEXIST);
    assertThat(errno(() -> fs.mknod("/r", FileType.REGULAR, 0644, 0, USER))).isEqualTo(Errno.EINVAL);
    assertThat(errno(() -> fs.mknod("/no/f", FileType.FIFO, 0644, 0, USER))).isEqualTo(Errno.ENOENT);
    // the client kernel opens fifos and devices; an open that reaches the engine is refused, never read
    assertThat(errno(() -> fs.open("/f", OpenFlags.READ_ONLY, USER))).isEqualTo(Errno.ENXIO);
    fs.unlink("/f");
    assertThat(gw.sdk.doesObjectExist(BUCKET, "f")).isFalse();
  }

  @Test
  void fstatOfAnOpenFileAfterUnlinkAnswersFromTheHandle() {
    FileHandle h = fs.create("/open", 0644, OpenFlags.READ_WRITE, false, USER);
    fs.write(h, 0, ByteBuffer.wrap(utf8("12345")));
    fs.flush(h);
    assertThat(fs.fgetattr(h).nlink()).isEqualTo(1);
    fs.unlink("/open");
    assertThat(errno(() -> fs.getattr("/open"))).isEqualTo(Errno.ENOENT);
    FileAttr a = fs.fgetattr(h);
    assertThat(a.nlink()).isZero();
    assertThat(a.size()).isEqualTo(5);
    fs.write(h, 5, ByteBuffer.wrap(utf8("67")));
    assertThat(fs.fgetattr(h).size()).isEqualTo(7);
    fs.release(h);
  }

  private void putOssfsStyle(String key, int mode) {
    ObjectMetadata md = new ObjectMetadata();
    md.setContentType("application/octet-stream");
    md.addUserMetadata("mode", Integer.toString(mode));
    md.addUserMetadata("uid", "0");
    md.addUserMetadata("gid", "0");
    md.addUserMetadata("mtime", "1577934245");
    md.setContentLength(0);
    gw.sdk.putObject(BUCKET, key, new ByteArrayInputStream(new byte[0]), md);
  }

  private static Errno errno(Runnable r) {
    try {
      r.run();
    } catch (FsException e) {
      return e.errno();
    }
    throw new AssertionError("expected an FsException");
  }
}
